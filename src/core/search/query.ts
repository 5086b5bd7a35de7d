/**
 * Splits a search box string into exact phrases ("in double quotes") and loose terms, bounded: a
 * query is something a person types, so whatever is pasted into it, search costs no more than a
 * query of the bounds below. Terms and phrases are de-duplicated before the bounds apply.
 */
export interface ParsedQuery {
  /** Phrases given in double quotes: they must occur exactly (case-insensitively) in the asset. */
  readonly phrases: readonly string[];
  /** Everything else, lower-cased, split on whitespace: matched fuzzily. */
  readonly terms: readonly string[];
}

/** Characters of a query that are read; the rest is ignored. */
export const MAX_QUERY_CHARS = 2_048;
/** Distinct loose terms used (all must match: past a few, more only narrows to nothing). */
export const MAX_QUERY_TERMS = 16;
/** A longer term is cut to its start (a prefix still finds what the whole term would). */
export const MAX_TERM_CHARS = 128;
/** Distinct quoted phrases used. */
export const MAX_QUERY_PHRASES = 8;

export function parseQuery(query: string): ParsedQuery {
  const phrases = new Set<string>();
  const rest = query.slice(0, MAX_QUERY_CHARS).replace(/"([^"]*)"/g, (_match, phrase: string) => {
    if (phrase.trim().length > 0 && phrases.size < MAX_QUERY_PHRASES) phrases.add(phrase);
    return ' ';
  });
  // An unbalanced quote is treated as ordinary text rather than as an error.
  const terms = new Set<string>();
  for (const term of rest.replace(/"/g, ' ').toLowerCase().split(/\s+/)) {
    if (term.length === 0) continue;
    terms.add(term.slice(0, MAX_TERM_CHARS));
    if (terms.size === MAX_QUERY_TERMS) break;
  }
  return { phrases: [...phrases], terms: [...terms] };
}
