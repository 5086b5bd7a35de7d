/**
 * Plain-text helpers shared by the offline title and summary methods (no model, no network).
 * Trimming a set of characters from an end is a loop here, not a regex such as `/[?!.]+$/`: a
 * regex retries its run from every position of a long run that does not reach the end, which is
 * quadratic in the run's length.
 */

/** The prose of a message: fenced code blocks are dropped, since they are not sentences. */
export function prose(raw: string): string {
  return raw
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Sentences of a text, split at ., ! or ? followed by whitespace, and at line breaks. */
export function sentences(text: string): string[] {
  const result: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const part of line.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'(\[])/)) {
      const sentence = part.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim();
      if (/[A-Za-z]/.test(sentence)) result.push(sentence);
    }
  }
  return result;
}

export const stopWords = new Set(
  (
    'a an the and or but if then so of to in on at by for with from into onto about as is are was were be been being ' +
    'it its this that these those there here i me my we our you your he she they them their it\'s i\'m what which who ' +
    'how why when where do does did doing have has had can could should would will shall may might must not no yes ' +
    'just also very too any some all each more most other such only own same than up down out over again further once ' +
    'am get got getting use using like want need help please thanks thank hi hello hey ok okay now still'
  ).split(' '),
);

/** Lower-case word tokens of a sentence, keeping dotted and underscored identifiers whole. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_][a-z0-9_.'-]*[a-z0-9_]|[a-z0-9]/g) ?? []).map((word) =>
    word.replace(/'s$/, ''),
  );
}

export function contentWords(text: string): string[] {
  return words(text).filter((word) => !stopWords.has(word) && word.length > 1);
}

/** Something that looks like code: Foo.bar, snake_case, camelCase, a call, or `quoted` code. */
export const codeIdentifier = /`[^`]+`|\b[A-Za-z_]\w*\.[A-Za-z_]\w*(?:\(\))?|\b[a-z]+_[a-z_\d]+\b|\b[a-z]+[A-Z]\w*\b|\b\w+\(\)/;

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return trimEnd(space > max / 2 ? cut.slice(0, space) : cut, (c) => /[\s,;:.-]/.test(c)) + '…';
}

/** `text` without the characters at its end that `strip` accepts. */
export function trimEnd(text: string, strip: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && strip(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the characters at its start that `strip` accepts. */
export function trimStart(text: string, strip: (char: string) => boolean): string {
  let start = 0;
  while (start < text.length && strip(text[start]!)) start++;
  return text.slice(start);
}
