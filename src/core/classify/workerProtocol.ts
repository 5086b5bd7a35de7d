/** Messages between LanguageClassifier and its worker thread. */
export interface WorkerSetup {
  readonly modelDir: string;
}

export interface WorkerRequest {
  readonly id: number;
  readonly text: string;
}

export interface ModelGuess {
  readonly languageId: string;
  readonly confidence: number;
}

export type WorkerReply =
  | { readonly ready: true }
  | { readonly failed: string }
  | { readonly id: number; readonly results: readonly ModelGuess[] }
  | { readonly id: number; readonly error: string };
