/** The model's mean unit vector over reference texts, counted as `weight` vectors of the library. */
export interface EmbeddingCentre {
  readonly prior: readonly number[];
  readonly weight: number;
}

/** What search needs from a loaded embedding model (implemented by the models area). */
export interface Embedder {
  /** The loaded model's id: vectors made by any other model are not comparable with its vectors. */
  readonly modelId: string;
  /**
   * What the model reads best of a snippet: `code`, its name, tags and code as written (a model
   * trained on code); `words`, its name, tags and the words of its identifiers (a model trained on
   * sentences, which reads `fetchWithRetry(url)` as noise but "fetch with retry url" as words).
   */
  readonly reads: 'code' | 'words';
  /**
   * Present for a model whose vectors crowd in one narrow cone: they are compared after moving
   * them by the library's mean, with this reference mean standing in for `weight` vectors while the
   * library is small (vectorIndex.ts). Absent: plain cosine similarity.
   */
  readonly centre?: EmbeddingCentre;
  /** The text's vector (unnormalized, as the model gives it); long text is cut to the model's context. */
  embed(text: string): Promise<Float32Array>;
  /** Vectors of several texts at once, in order, when the model reads a batch for less than its texts one by one. */
  embedMany?(texts: readonly string[]): Promise<Float32Array[]>;
}
