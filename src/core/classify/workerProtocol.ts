/** Messages between LanguageClassifier and its worker thread. */
import type { LanguageGuess } from './decision.ts';

export interface WorkerSetup {
  readonly modelDir: string;
}

export interface WorkerRequest {
  readonly id: number;
  readonly text: string;
}

export type WorkerReply =
  | { readonly ready: true }
  | { readonly failed: string }
  | { readonly id: number; readonly guess: LanguageGuess }
  | { readonly id: number; readonly error: string };
