/**
 * The text a snippet's vector is made from, in the form its embedding model reads best
 * (Embedder.reads). Both start with the name and tags, which say what a snippet is for in the
 * words its owner chose, and stand for the rest of the code with its head.
 */
import { identifiers, subTokens } from './tokens.ts';

/**
 * Code embedded per snippet after its name and tags: sentence-embedding models read 256–512 tokens
 * (longer input is cut anyway), and the cost grows faster than the length (a 64-d test model took
 * 13 ms for 1,000 characters and 250 ms for 4,000 on this machine), so the head stands for the rest.
 */
export const EMBEDDED_CHARS = 2000;

/** Name, tags and the code as written: for models trained on code. */
export function codeText(name: string, tags: readonly string[], code: string): string {
  return `${name}\n${tags.length > 0 ? `${tags.join(', ')}\n` : ''}\n${code.slice(0, EMBEDDED_CHARS)}`;
}

/**
 * Name, tags and the words of the code's identifiers, each once in order of appearance, on one
 * line: for models trained on sentences. `fetchWithRetry(url, attempts)` reads as "fetch with
 * retry url attempts"; punctuation, operators and literals, which such a model reads as noise, go.
 */
export function wordsText(name: string, tags: readonly string[], code: string): string {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const identifier of identifiers(code.slice(0, EMBEDDED_CHARS))) {
    for (const word of subTokens(identifier)) {
      if (word.length < 2 || seen.has(word)) continue;
      seen.add(word);
      words.push(word);
    }
  }
  const title = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\s]+/g, ' ').trim();
  return [title, tags.join(', '), words.join(' ')].filter((part) => part !== '').join('. ');
}
