/**
 * Worker thread of an import (batchPreparer.ts): makes the derived rows of one batch of texts at a
 * time, so the writer's thread only writes. Its own esbuild entry (dist/prepareWorker.cjs).
 */
import { parentPort } from 'node:worker_threads';
import { prepareAsset } from './preparedAsset.ts';
import type { PrepareReply, PrepareRequest } from './prepareProtocol.ts';

parentPort?.on('message', (request: PrepareRequest) => {
  let reply: PrepareReply;
  try {
    reply = { id: request.id, prepared: request.texts.map(prepareAsset) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  // The fingerprints' buffers move instead of being copied.
  const transfer = 'prepared' in reply ? reply.prepared.map((asset) => asset.fingerprint.hashes.buffer as ArrayBuffer) : [];
  parentPort?.postMessage(reply, transfer);
});
