/** A snippet planted in the bench corpus and the query, in other words, that should find it. */
export interface MeaningTarget {
  readonly query: string;
  readonly name: string;
  /** A corpus language id (corpus.ts). */
  readonly language: string;
  readonly tags: readonly string[];
  readonly code: string;
}
