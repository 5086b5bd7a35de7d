/** Messages between an import and its worker thread (batchPreparer.ts, prepareWorker.ts). */
import type { PreparedAsset } from './preparedAsset.ts';

export interface PrepareRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

export type PrepareReply = { readonly id: number; readonly prepared: PreparedAsset[] } | { readonly id: number; readonly error: string };

/** The bundle's worker, next to the other bundles in dist/ (kept in step with esbuild.mjs). */
export const bundledPrepareWorker = 'prepareWorker.cjs';
