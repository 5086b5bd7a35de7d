/**
 * A CPU profile of the extension host from its first line (`npm run bench:day -- --only-start
 * --profile-start=DIR`). The window is opened with `inspect-brk-extensions` in its payload, so VS Code
 * starts the extension host with `--inspect-brk=<port>` and it waits before running anything; the
 * runner attaches over the inspector's WebSocket (Chrome DevTools Protocol), starts V8's sampling
 * profiler and lets it run. Everything the extension host does before and during the activations —
 * VS Code's own start, merge-conflict's code, Satchel's — is in one profile, on the extension host's
 * own clock. A diagnosis: the inspector and the sampling cost the extension host a little, so the
 * figures of a profiled start are read for where the time goes, not as the activation figure.
 */
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

/** 0.25 ms: a 20 ms span is 80 samples. */
const SAMPLING_INTERVAL_US = 250;

interface Reply {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

export class ExtensionHostProfile {
  private readonly socket: WebSocket;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as Reply;
      if (reply.id === undefined) return;
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error) waiting?.reject(new Error(reply.error.message));
      else waiting?.resolve(reply.result);
    });
    socket.on('close', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('the extension host\'s inspector closed'));
      this.pending.clear();
    });
  }

  /** Waits for the extension host's inspector on `port`, starts the profiler, then lets the extension host run. */
  static async attach(port: number, timeoutMs = 60_000): Promise<ExtensionHostProfile> {
    const url = await debuggerUrl(port, Date.now() + timeoutMs);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const profile = new ExtensionHostProfile(socket);
    await profile.call('Profiler.enable');
    await profile.call('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await profile.call('Profiler.start');
    await profile.call('Runtime.runIfWaitingForDebugger');
    return profile;
  }

  /** Stops the profiler and writes the profile (a `.cpuprofile`: open it in Chrome's DevTools, or read it with activationProfile.ts). */
  async stop(file: string): Promise<void> {
    const result = await this.call('Profiler.stop');
    const profile = result && typeof result === 'object' && 'profile' in result ? result.profile : undefined;
    if (!profile) throw new Error('the extension host\'s profiler returned no profile');
    writeFileSync(file, JSON.stringify(profile));
    this.socket.close();
  }

  private call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}

/** The inspector's WebSocket address, once the extension host listens (it starts a few seconds into the window's life). */
async function debuggerUrl(port: number, deadline: number): Promise<string> {
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/list`);
      const targets = (await response.json()) as Array<{ webSocketDebuggerUrl?: string }>;
      const url = targets.find((target) => target.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the extension host's inspector did not answer on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
