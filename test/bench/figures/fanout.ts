/**
 * Change fan-out: N WebSocket subscribers on /assets/stream/identifiers; each update (a rename
 * through POST /asset/update) is timed from sending the update request to each subscriber's
 * receipt of a frame naming the asset. The subscribers share the benchmark process.
 */
import WebSocket from 'ws';
import type { BenchClient } from '../client.ts';
import { latency, type Latency } from '../stats.ts';

export interface FanoutFigure extends Latency {
  readonly subscribers: number;
  readonly updates: number;
  /** Subscriber × update pairs that saw no frame within the timeout. */
  readonly missed: number;
  /** Time for all subscribers to connect and receive their first (full) frame, ms. */
  readonly connectMs: number;
  /** Size of one subscriber's first frame, bytes. */
  readonly firstFrameBytes: number;
  /** The update request alone (commit and reply), median ms. */
  readonly updateAckMs: number;
}

interface Subscriber {
  readonly socket: WebSocket;
  waitingFor?: string;
  seen?: (at: number) => void;
}

export async function measureFanout(
  client: BenchClient,
  ids: readonly string[],
  options: { subscribers: number; updates: number; timeoutMs?: number },
): Promise<FanoutFigure> {
  const streamUrl = `${client.url.replace(/^http/, 'ws')}/assets/stream/identifiers`;
  const subscribers: Subscriber[] = [];
  let firstFrameBytes = 0;
  const connectStarted = performance.now();
  try {
    await Promise.all(Array.from({ length: options.subscribers }, () => new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(streamUrl, { perMessageDeflate: false });
      const subscriber: Subscriber = { socket };
      subscribers.push(subscriber);
      let first = true;
      socket.on('message', (data: WebSocket.RawData) => {
        const at = performance.now();
        const text = data.toString();
        if (first) {
          first = false;
          firstFrameBytes = Buffer.byteLength(text);
          resolve();
          return;
        }
        if (subscriber.waitingFor !== undefined && text.includes(subscriber.waitingFor)) {
          subscriber.waitingFor = undefined;
          subscriber.seen?.(at);
        }
      });
      socket.once('error', reject);
      socket.once('close', (code) => first && reject(new Error(`stream closed before its first frame (${code})`)));
    })));
    const connectMs = performance.now() - connectStarted;

    const seen: number[] = [];
    const acks: number[] = [];
    let missed = 0;
    for (let u = 0; u < options.updates; u++) {
      const id = ids[(u * 7919) % ids.length]!;
      const current = await client.ok('GET', `/asset/${encodeURIComponent(id)}?transferables=false`);
      const asset = { ...(current.body as Record<string, unknown>), name: `renamed ${u}` };
      const arrivals = subscribers.map((s) => new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => {
          s.waitingFor = undefined;
          resolve(undefined);
        }, options.timeoutMs ?? 5000);
        s.waitingFor = id;
        s.seen = (at) => {
          clearTimeout(timer);
          resolve(at);
        };
      }));
      const sent = performance.now();
      const reply = await client.ok('POST', '/asset/update?transferables=false', asset);
      acks.push(reply.ms);
      for (const at of await Promise.all(arrivals)) {
        if (at === undefined) missed++;
        else seen.push(at - sent);
      }
    }
    acks.sort((a, b) => a - b);
    return {
      ...latency(seen),
      subscribers: options.subscribers,
      updates: options.updates,
      missed,
      connectMs,
      firstFrameBytes,
      updateAckMs: acks[Math.floor(acks.length / 2)] ?? Number.NaN,
    };
  } finally {
    for (const s of subscribers) s.socket.terminate();
  }
}
