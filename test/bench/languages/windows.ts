/** How the benchmark cuts windows out of files (extract.ts, linguist.ts). */

/** mulberry32: a small seeded generator, so the sets are the same on every run. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const commentLine = /^\s*(#|\/\/|\/\*|\*|--|;|%|<!--|'''|""")/;

/**
 * A window someone would save as a snippet: mostly code, not a licence header, not minified. A
 * comment line starts with a comment mark or, given `comments` (comments.ts, the third label
 * rule), holds no code in its file's language.
 */
export function usable(lines: readonly string[], comments?: readonly boolean[]): boolean {
  const filled = lines.filter((line) => line.trim() !== '');
  if (filled.length < Math.max(3, lines.length * 0.6)) return false;
  if (lines.some((line) => line.length > 300)) return false;
  const commented = lines.filter((line, i) => line.trim() !== '' && (commentLine.test(line) || comments?.[i] === true)).length;
  return commented <= filled.length * 0.5;
}


const openers = '([{';
const closers = ')]}';

/**
 * A line or three someone would save alone (the `lines` cut, extract.ts): every line code, not a
 * comment (nor, given `comments`, a line holding no code) or a blank; at least 20 characters besides spaces (guesslang's least), no line over 200;
 * and whole: its brackets close in order within it, so no window is the tail of a call or a block.
 */
export function usableLines(lines: readonly string[], comments?: readonly boolean[]): boolean {
  if (lines.some((line, i) => line.trim() === '' || line.length > 200 || commentLine.test(line) || comments?.[i] === true)) return false;
  const text = lines.join('\n');
  if (text.replace(/\s/g, '').length < 20) return false;
  const open: string[] = [];
  for (const ch of text) {
    if (openers.includes(ch)) open.push(ch);
    else if (closers.includes(ch) && open.pop() !== openers[closers.indexOf(ch)]) return false;
  }
  return open.length === 0;
}

/** The lines without the indentation common to them: a line or three is saved from its first character. */
export function dedented(lines: readonly string[]): string[] {
  const indent = Math.min(...lines.map((line) => /^[ \t]*/.exec(line)![0].length));
  return lines.map((line) => line.slice(indent));
}
