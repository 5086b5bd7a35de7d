import { availableParallelism } from 'node:os';
import type { CatalogEntry } from './catalog.ts';

export interface ModelSettings {
  /** Unload a loaded text model after this many idle milliseconds (0 = never); embedding models stay. */
  readonly idleUnloadMs: number;
  /** Downloads the catalog's files from this base URL instead of their own (a mirror; tests use 127.0.0.1). */
  readonly catalogBaseUrl?: string;
  /** Replaces the shipped catalog. */
  readonly catalog?: readonly CatalogEntry[];
  /** Context window a text model is loaded with (capped by what the model was trained for). */
  readonly contextSize: number;
  readonly threads: number;
  readonly loadTimeoutMs: number;
  /** First retry delay of a download; it doubles up to 8 s. */
  readonly retryBackoffMs: number;
  /** Minimum time between two progress frames of one download (state changes are never held back). */
  readonly progressIntervalMs: number;
}

export const defaultModelSettings: ModelSettings = {
  idleUnloadMs: 15 * 60_000,
  contextSize: 4096,
  // llama.cpp threads spin while they wait: leave a core to the editor, or generation crawls.
  threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  loadTimeoutMs: 120_000,
  retryBackoffMs: 250,
  progressIntervalMs: 250,
};
