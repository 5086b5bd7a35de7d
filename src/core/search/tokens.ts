/**
 * Tokenising code for search and similarity: identifiers, their camelCase/snake_case sub-tokens,
 * and character trigrams.
 */

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Identifiers of `text` in order of appearance (with repeats), comments and strings included. */
export function identifiers(text: string): string[] {
  return text.match(IDENTIFIER) ?? [];
}

/** `getUserById` → [get, user, by, id]; `parse_config_stream` → [parse, config, stream]; lower-cased. */
export function subTokens(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
}

/** Distinct identifiers of at least 3 characters, in first-seen order (capped, for the trigram column). */
export function distinctIdentifiers(text: string, limit = 400): string[] {
  const seen = new Set<string>();
  for (const identifier of identifiers(text)) {
    if (identifier.length < 3) continue;
    seen.add(identifier);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/**
 * The text the word index holds for some content: the content itself plus the sub-tokens of its
 * compound identifiers, so a search for `user` finds `getUserById`.
 */
export function wordIndexText(text: string): string {
  const parts = new Set<string>();
  for (const identifier of distinctIdentifiers(text, 2000)) {
    const subs = subTokens(identifier);
    if (subs.length > 1) for (const sub of subs) parts.add(sub);
  }
  return parts.size > 0 ? `${text}\n${[...parts].join(' ')}` : text;
}

export function trigrams(term: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= term.length; i++) out.add(term.slice(i, i + 3));
  return [...out];
}
