/**
 * A client that declares a request body of `declared` bytes and writes `sent` of them as fast as the
 * socket takes them, over a plain socket (so nothing between it and the host reads, retries or
 * closes for it), then waits until the host closes the connection.
 */
import { connect } from 'node:net';

export interface RawUpload {
  /** Status of the answer, 0 when the connection ended without one. */
  readonly status: number;
  /** The first 4 KiB of what the host answered. */
  readonly answer: string;
  /** What ended the connection on the client's side: 'close', or the write/read error's code. */
  readonly ended: string;
  /** Milliseconds from the start until the connection closed. */
  readonly closedAfterMs: number;
}

export interface RawUploadOptions {
  readonly port: number;
  readonly declared: number;
  readonly sent: number;
  /** Reads nothing for this long (a client busy writing its body); 0 reads at once. */
  readonly deafMs?: number;
  /** Closes the connection itself after this long. */
  readonly giveUpMs?: number;
  readonly path?: string;
}

export function rawUpload(options: RawUploadOptions): Promise<RawUpload> {
  const { port, declared, sent, deafMs = 0, giveUpMs = 60_000, path = '/assets/create' } = options;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    let ended = 'close';
    let hearing: NodeJS.Timeout | undefined;
    if (deafMs > 0) {
      socket.pause();
      hearing = setTimeout(() => socket.resume(), deafMs);
    }
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('data', (chunk: Buffer) => {
      if (answer.length < 4096) answer += chunk.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (ended = error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearTimeout(hearing);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve({ status: match ? Number(match[1]) : 0, answer, ended, closedAfterMs: Math.round(performance.now() - started) });
    });
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let written = 0;
    const pump = (): void => {
      while (written < sent && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}
