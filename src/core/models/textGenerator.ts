/** What conversations need from a loaded local language model (implemented by the models area). */
export interface GenerateOptions {
  readonly maxTokens: number;
  /** The caller falls back to its offline method when this passes. */
  readonly timeoutMs: number;
  /** Constrains the output to JSON matching this schema (a grammar in the runtime). */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

export interface TextGenerator {
  generate(prompt: string, options: GenerateOptions): Promise<string>;
}
