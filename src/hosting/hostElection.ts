/**
 * Which process serves the data directory. Every window runs one election: the first to take the
 * directory's host lock serves it; the others become clients of the URL in the port file, and keep
 * waiting on the lock, so when the host goes away (window closed, crashed) one of them takes over
 * within the lock's poll interval. When this process cannot host at all (no node:sqlite in this
 * runtime, a store it cannot open), it stays `failed` with that error but keeps looking for another
 * Satchel serving the directory (the CLI, another window) and is its client while one answers.
 * Knows nothing of VS Code, so plain tests drive it.
 */
import { Emitter, type Event } from '../core/events.ts';
import type { Logger } from '../core/context.ts';
import { tryStartHost, startHostWhenFree, type HostOptions, type RunningHost } from './host.ts';
import { readPortFile } from './portFile.ts';
import { SatchelClient } from '../client/satchelClient.ts';
import type { Role } from './hosting.ts';

export type { Role } from './hosting.ts';

export interface ElectionOptions extends HostOptions {
  /** How often a client checks that its host still answers (and re-reads the port file). */
  readonly probeIntervalMs?: number;
}

export class HostElection {
  private readonly options: ElectionOptions;
  private readonly logger: Logger;
  private readonly changes = new Emitter<Role>();
  readonly onDidChangeRole: Event<Role> = this.changes.event;
  private current: Role = { kind: 'starting' };
  private host: RunningHost | undefined;
  private readonly standby = new AbortController();
  private probeTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** Why this process cannot host; set, it no longer stands by for the lock (it would only fail again). */
  private hostingError: Error | undefined;

  constructor(options: ElectionOptions) {
    this.options = options;
    this.logger = options.logger;
  }

  get role(): Role {
    return this.current;
  }

  /** The running host when this process serves the directory (for shutdown and tests). */
  get runningHost(): RunningHost | undefined {
    return this.host;
  }

  /** Resolves once the first role (host, client or waiting) is known; failures become the `failed` role. */
  async start(): Promise<Role> {
    try {
      const host = await tryStartHost(this.options);
      if (host) {
        this.becomeHost(host);
        return this.current;
      }
    } catch (error) {
      // Not announced yet: with another Satchel serving the directory this window is its client.
      this.hostingError = asError(error);
      this.logger.error('This process cannot host the data directory', error);
    }
    await this.findHost();
    if (!this.hostingError) this.waitForTakeover();
    this.probeTimer = setInterval(() => void this.findHost(), this.options.probeIntervalMs ?? 2_000);
    this.probeTimer.unref?.();
    return this.current;
  }

  private becomeHost(host: RunningHost): void {
    this.host = host;
    clearInterval(this.probeTimer);
    this.set({ kind: 'host', url: host.server.url, port: host.server.port });
  }

  private waitForTakeover(): void {
    startHostWhenFree(this.options, this.standby.signal).then(
      (host) => {
        if (this.disposed) {
          void host.close();
          return;
        }
        this.logger.info('The previous host went away; this window now hosts the server.');
        this.becomeHost(host);
      },
      (error: unknown) => {
        if (this.standby.signal.aborted) return;
        this.logger.error('Taking over as host failed', error);
        this.hostingFailed(error);
        void this.findHost();
      },
    );
  }

  /** As a client: the port file names the host; it counts only once its health check answers. */
  private async findHost(): Promise<void> {
    if (this.host || this.disposed) return;
    const file = readPortFile(this.options.dataDir);
    if (file) {
      const url = `http://127.0.0.1:${file.port}`;
      const probe = new SatchelClient(url, { timeoutMs: 1_500 });
      try {
        if ((await probe.health()) === 'ok' && !this.host && !this.disposed) {
          const role = this.current;
          if (role.kind !== 'client' || role.port !== file.port) {
            this.set({ kind: 'client', url, port: file.port, ...(this.hostingError ? { cannotHost: this.hostingError } : {}) });
          }
          return;
        }
      } catch {
        // Not answering (yet): keep looking.
      } finally {
        probe.dispose();
      }
    }
    if (this.host || this.disposed) return;
    if (this.hostingError) {
      if (this.current.kind !== 'failed') this.set({ kind: 'failed', error: this.hostingError });
    } else if (this.current.kind !== 'waiting') this.set({ kind: 'waiting' });
  }

  private hostingFailed(error: unknown): void {
    this.hostingError = asError(error);
    this.set({ kind: 'failed', error: this.hostingError });
  }

  private set(role: Role): void {
    this.current = role;
    this.changes.fire(role);
  }

  /** Stops hosting (releasing the lock for a successor) or stops waiting. */
  async close(): Promise<void> {
    this.disposed = true;
    this.standby.abort();
    clearInterval(this.probeTimer);
    const host = this.host;
    this.host = undefined;
    await host?.close();
    this.changes.dispose();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
