/**
 * A bench's look inside a data host started with `--inspect=127.0.0.1:0`: its `process.memoryUsage()`
 * and V8's heap spaces, a forced full collection (to tell the heap a phase left alive from what V8
 * had not collected yet), and heap snapshots. Over the inspector's WebSocket on loopback (Node's
 * global WebSocket); the host prints the address on stderr when it starts.
 */
import { writeFileSync } from 'node:fs';

/** The inspector's address in what a host started with --inspect printed. */
export function inspectorUrl(output: string): string {
  const match = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(output);
  if (!match) throw new Error(`the host printed no inspector address (started without --inspect=127.0.0.1:0?)\n${output.slice(-2000)}`);
  return match[1]!;
}

export interface HeapReading {
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
  readonly externalMb: number;
  readonly arrayBuffersMb: number;
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

const mb = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

export class HostInspector {
  private readonly socket: WebSocket;
  private readonly pending = new Map<number, Pending>();
  private readonly chunks: string[] = [];
  private readonly attached: string[] = [];
  private nextId = 1;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; method?: string; params?: { chunk?: string }; result?: unknown; error?: { message: string } };
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunks.push(message.params?.chunk ?? '');
      if (message.method === 'NodeWorker.attachedToWorker') {
        const info = (message.params as { workerInfo?: { title?: string; url?: string } } | undefined)?.workerInfo;
        this.attached.push(`${info?.title ?? '?'} ${(info?.url ?? '').slice(0, 60)}`);
      }
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    });
  }

  static connect(url: string): Promise<HostInspector> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener('open', () => resolve(new HostInspector(socket)), { once: true });
      socket.addEventListener('error', () => reject(new Error(`could not reach the host's inspector at ${url}`)), { once: true });
    });
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The host's `process.memoryUsage()`, MB. */
  async memory(): Promise<HeapReading> {
    const result = (await this.send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
    const usage = JSON.parse(result.result.value) as { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
    return { rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed), heapTotalMb: mb(usage.heapTotal), externalMb: mb(usage.external), arrayBuffersMb: mb(usage.arrayBuffers) };
  }

  /** A full collection, as many times as V8 needs (the inspector's own, what a heap snapshot does first). */
  async collectGarbage(): Promise<void> {
    await this.send('HeapProfiler.collectGarbage');
  }

  /** Writes a heap snapshot of the host to `file`. */
  async snapshot(file: string): Promise<void> {
    this.chunks.length = 0;
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(file, this.chunks.join(''));
    this.chunks.length = 0;
  }

  /** The host's worker threads running now, by title and script (an eval worker's script is its source). */
  async workers(): Promise<string[]> {
    this.attached.length = 0;
    await this.send('NodeWorker.enable', { waitForDebuggerOnStart: false });
    await new Promise((done) => setTimeout(done, 200));
    await this.send('NodeWorker.disable');
    return [...this.attached];
  }

  close(): void {
    this.socket.close();
  }
}
