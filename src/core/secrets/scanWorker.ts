/**
 * The worker thread large texts are scanned on (secretScanner.ts), so the host's loop answers while a
 * 4 MiB snippet is scanned. Protocol: `{ ready: true }` once loaded, then `{ id, findings }` or
 * `{ id, error }` for each `{ id, texts }`, and `{ id, stored }` or `{ id, error }` for each `{ id,
 * stored }` (a stored snippet it reads itself: storedScan.ts), one at a time.
 */
import { parentPort } from 'node:worker_threads';
import { detectSecrets } from './detector.ts';
import { scanStored } from './storedScan.ts';
import type { ScanReply, ScanRequest } from './scanProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('scanWorker must run in a worker thread');

function reply(message: ScanReply): void {
  port!.postMessage(message);
}

port.on('message', (request: ScanRequest) => {
  const failed = (error: unknown): void => reply({ id: request.id, error: String(error) });
  if ('stored' in request) {
    scanStored(request.stored).then((stored) => reply({ id: request.id, stored }), failed);
    return;
  }
  detectSecrets(request.texts).then((findings) => reply({ id: request.id, findings }), failed);
});
reply({ ready: true });
