/**
 * The worker thread large texts are scanned on (secretScanner.ts), so the host's loop answers while a
 * 4 MiB snippet is scanned. Protocol: `{ ready: true }` once loaded, then `{ id, findings }` or
 * `{ id, error }` for each `{ id, texts }`, one at a time.
 */
import { parentPort } from 'node:worker_threads';
import { detectSecrets } from './detector.ts';
import type { ScanReply, ScanRequest } from './scanProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('scanWorker must run in a worker thread');

function reply(message: ScanReply): void {
  port!.postMessage(message);
}

port.on('message', (request: ScanRequest) => {
  detectSecrets(request.texts).then(
    (findings) => reply({ id: request.id, findings }),
    (error: unknown) => reply({ id: request.id, error: String(error) }),
  );
});
reply({ ready: true });
