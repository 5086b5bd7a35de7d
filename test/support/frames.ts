/** Collects the JSON frames of one WebSocket stream, for assertions on what arrived and when. */
import { WebSocket } from 'ws';

export interface Frames<T> {
  readonly frames: T[];
  readonly times: number[];
  /** Resolves with the first frame from index `from` on (received or future) that satisfies `match`. */
  until(match: (frame: T) => boolean, from?: number, timeoutMs?: number): Promise<T>;
  readonly closed: Promise<void>;
  close(): void;
}

export async function openFrames<T>(url: string): Promise<Frames<T>> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'));
  const frames: T[] = [];
  const times: number[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as T);
    times.push(Date.now());
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    frames,
    times,
    closed,
    until(match, from = 0, timeoutMs = 20_000) {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close() {
      socket.close();
    },
  };
}
