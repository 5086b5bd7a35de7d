/** What search needs from a loaded embedding model (implemented by the models area). */
export interface Embedder {
  /** The loaded model's id: vectors made by any other model are not comparable with its vectors. */
  readonly modelId: string;
  /** The text's vector (unnormalized, as the model gives it); long text is cut to the model's context. */
  embed(text: string): Promise<Float32Array>;
}
