/**
 * Tokenising code for search and similarity: identifiers, their camelCase/snake_case sub-tokens,
 * and character trigrams. Every function here is one left-to-right pass (no backtracking regex),
 * so its cost is linear in its input whatever the characters.
 */

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * How much of an asset's text is indexed (words, identifiers, fingerprints, similarity terms).
 * Beyond it a text is data, not something a person searches by word: a 64 MiB paste costs the
 * same to index as a 1 MiB one, and stays searchable by its name, tags and first mebibyte.
 */
export const INDEXED_CHARS = 1 << 20;

/**
 * The indexed part of `text`: all of it up to `limit` characters, else its first `limit` cut back
 * to a line or word break near the limit, so no token is indexed half.
 */
export function indexedPrefix(text: string, limit = INDEXED_CHARS): string {
  if (text.length <= limit) return text;
  let end = limit;
  // Never split a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const floor = Math.max(0, end - 256);
  for (let i = end; i > floor; i--) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 32 || c === 9 || c === 13) return text.slice(0, i);
  }
  return text.slice(0, end);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Identifiers of `text` in order of appearance (with repeats), comments and strings included. */
export function identifiers(text: string): string[] {
  return text.match(IDENTIFIER) ?? [];
}

// Character kinds of the sub-token scanner.
const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;

function kindOf(c: number): number {
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 48 && c <= 57) return DIGIT;
  return OTHER;
}

/**
 * `getUserById` → [get, user, by, id]; `parse_config_stream` → [parse, config, stream];
 * `HTTPServerError` → [http, server, error]; lower-cased. A part ends at anything but an ASCII
 * letter or digit, before an upper-case letter that follows a lower-case letter or a digit, and
 * before the last letter of an upper-case run that goes on in lower case.
 */
export function subTokens(identifier: string): string[] {
  const parts: string[] = [];
  let start = -1;
  const n = identifier.length;
  for (let i = 0; i < n; i++) {
    const kind = kindOf(identifier.charCodeAt(i));
    if (kind === OTHER) {
      if (start >= 0) parts.push(identifier.slice(start, i).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    if (kind === UPPER) {
      const previous = kindOf(identifier.charCodeAt(i - 1));
      const splits =
        previous === LOWER ||
        previous === DIGIT ||
        (previous === UPPER && i + 1 < n && kindOf(identifier.charCodeAt(i + 1)) === LOWER);
      if (splits) {
        parts.push(identifier.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  if (start >= 0) parts.push(identifier.slice(start).toLowerCase());
  return parts;
}

/** Longer "identifiers" are data (hashes, base64, generated constants), not names a person types. */
export const MAX_IDENTIFIER_CHARS = 100;

/**
 * Distinct identifiers of 3 to MAX_IDENTIFIER_CHARS characters in the indexed prefix, in
 * first-seen order (capped, for the trigram column).
 */
export function distinctIdentifiers(text: string, limit = 400): string[] {
  const seen = new Set<string>();
  // matchAll is lazy: the scan stops at the limit.
  for (const [identifier] of indexedPrefix(text).matchAll(IDENTIFIER)) {
    if (identifier.length < 3 || identifier.length > MAX_IDENTIFIER_CHARS) continue;
    seen.add(identifier);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/** Identifiers whose sub-tokens the word index holds (`wordIndexText`). */
export const WORD_INDEX_IDENTIFIERS = 2000;

/**
 * The text the word index holds for some content: its indexed prefix plus the sub-tokens of its
 * compound identifiers, so a search for `user` finds `getUserById`. `identifiers` are the text's
 * `distinctIdentifiers(text, WORD_INDEX_IDENTIFIERS)` when the caller has scanned for them already.
 */
export function wordIndexText(text: string, identifiers: readonly string[] = distinctIdentifiers(text, WORD_INDEX_IDENTIFIERS)): string {
  const indexed = indexedPrefix(text);
  const parts = new Set<string>();
  for (const identifier of identifiers) {
    const subs = subTokens(identifier);
    if (subs.length > 1) for (const sub of subs) parts.add(sub);
  }
  return parts.size > 0 ? `${indexed}\n${[...parts].join(' ')}` : indexed;
}

export function trigrams(term: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= term.length; i++) out.add(term.slice(i, i + 3));
  return [...out];
}
