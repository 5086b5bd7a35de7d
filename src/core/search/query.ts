/** Splits a search box string into exact phrases ("in double quotes") and loose terms. */
export interface ParsedQuery {
  /** Phrases given in double quotes: they must occur exactly (case-insensitively) in the asset. */
  readonly phrases: readonly string[];
  /** Everything else, lower-cased, split on whitespace: matched fuzzily. */
  readonly terms: readonly string[];
}

export function parseQuery(query: string): ParsedQuery {
  const phrases: string[] = [];
  const rest = query.replace(/"([^"]*)"/g, (_match, phrase: string) => {
    if (phrase.trim().length > 0) phrases.push(phrase);
    return ' ';
  });
  // An unbalanced quote is treated as ordinary text rather than as an error.
  const terms = rest
    .replace(/"/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term.length > 0);
  return { phrases, terms };
}

/** Whether `haystack` contains `phrase` exactly, optionally ignoring case. */
export function containsPhrase(haystack: string, phrase: string, caseSensitive = false): boolean {
  return caseSensitive ? haystack.includes(phrase) : haystack.toLowerCase().includes(phrase.toLowerCase());
}
