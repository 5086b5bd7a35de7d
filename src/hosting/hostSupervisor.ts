/**
 * A window's part in serving a data directory. The data host (Koa, SQLite, the indexes, sync) runs
 * as its own process, never in the window's extension host. Every window is a client of the host
 * the port file names. One window, the lead (it holds the directory's lead lock, taken over within
 * a second when that window goes), starts the host when none answers and starts it again when it
 * stops; every window holds a WebSocket to it, which closes the moment the host dies and which the
 * host counts to know it is still used (hosting/idleExit.ts). Knows nothing of VS Code.
 */
import type WebSocket from 'ws';
import type { ChildProcess } from 'node:child_process';
import { Emitter, type Event } from '../core/events.ts';
import type { Logger } from '../core/context.ts';
import { HostLock } from '../core/store/hostLock.ts';
import { SatchelClient } from '../client/satchelClient.ts';
import { readPortFile, type PortFile } from './portFile.ts';
import { openPresence, processExists, terminate } from './hostProcess.ts';
import { hostLogSince, refusedNodeFlag, spawnDataHost, type DataHostCommand } from './hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../core/hostNodeFlags.ts';
import { EXIT_SERVED_ELSEWHERE, errorOfExit } from './hostExit.ts';
import type { Hosting, HostingOptions, Role } from './hosting.ts';

/** The lock that names the lead window (a SQLite lock like the host lock: dropped when its window dies). */
export const LEAD_LOCK_FILE = 'lead.lock';

export interface SupervisorOptions extends HostingOptions {
  readonly command: DataHostCommand;
  /** How often a window with no host looks again (and the lead retries the lead lock at 4×). */
  readonly probeIntervalMs?: number;
  /** This extension's version: the lead replaces a window-started host of another version (after an update). */
  readonly version?: string;
}

interface Attached {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly socket: WebSocket;
}

const SERVED_ELSEWHERE_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 8_000;
/** A host that stops this often is not started again (as language clients do): something is wrong with it. */
const CRASHES_ALLOWED = 5;
const CRASH_WINDOW_MS = 3 * 60_000;
/**
 * How long a host seen to stop may still be ending: a process killed while it waits on the disk (an
 * fsync under load) holds the host lock until the kernel lets it go, and a host started before that
 * is only turned away (and would back off for seconds). Bounded, for a process id taken by another.
 */
const STOPPING_MAX_MS = 5_000;

export class HostSupervisor implements Hosting {
  private readonly options: SupervisorOptions;
  private readonly logger: Logger;
  private readonly changes = new Emitter<Role>();
  readonly onDidChangeRole: Event<Role> = this.changes.event;
  private current: Role = { kind: 'starting' };
  private lead: HostLock | undefined;
  /** Why this window cannot start a host (no node:sqlite here, a store that will not open). */
  private cannotHost: Error | undefined;
  private attached: Attached | undefined;
  /** The host this window started, while it runs. */
  private child: ChildProcess | undefined;
  private childExit: string | undefined;
  /** Resolves when the host this window started ends. */
  private childExited: Promise<unknown> = Promise.resolve();
  private starting: Promise<void> | undefined;
  private backoffMs = 0;
  private notBefore = 0;
  /** Said with the next role: what happened to the host. */
  private pendingNotice: string | undefined;
  private lostAt = 0;
  /** The host last seen to stop (at lostAt): its port file, left behind when it was killed, names it until the next host writes its own. */
  private lostPid: number | undefined;
  /** When the hosts this window looked after stopped, within the last CRASH_WINDOW_MS. */
  private readonly stops: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly standby = new AbortController();
  private disposed = false;
  /** V8's flags for the host; none once its runtime refused them. */
  private nodeFlags = DATA_HOST_NODE_FLAGS;
  /** Set by stopHost(): this part is about to be replaced (new settings), so it starts no host of its own. */
  private replacing = false;

  constructor(options: SupervisorOptions) {
    this.options = options;
    this.logger = options.logger;
  }

  get role(): Role {
    return this.current;
  }

  /** The data host's process id while this window is connected to one. */
  get hostPid(): number | undefined {
    return this.attached?.pid;
  }

  async start(): Promise<Role> {
    try {
      this.lead = HostLock.tryAcquire(this.options.dataDir, LEAD_LOCK_FILE);
    } catch (error) {
      this.cannotHost = asError(error);
      this.logger.error('This window cannot start the Satchel host', error);
    }
    // Opening the lock (node:sqlite loaded, a database opened) and starting the host (a spawn) each
    // hold the editor's extension host for tens of ms: in one turn they held it 100 ms (bench:day).
    await new Promise((resolve) => setImmediate(resolve));
    await this.look();
    if (!this.lead && !this.cannotHost) this.standForLead();
    this.schedule();
    return this.current;
  }

  /** Connects to the host the port file names, or (the lead) starts one. */
  private async look(): Promise<void> {
    if (this.disposed || this.replacing || this.attached) return;
    if (await this.attach()) return;
    if (this.lead && !this.cannotHost) {
      await this.startHost();
      return;
    }
    if (this.cannotHost) {
      if (this.current.kind !== 'failed') this.set({ kind: 'failed', error: this.cannotHost });
    } else if (this.current.kind !== 'waiting') this.set({ kind: 'waiting', ...this.notice() });
  }

  /** True once connected to the host of the port file, its health answered and its presence socket open. */
  private async attach(): Promise<boolean> {
    const file = readPortFile(this.options.dataDir);
    if (!file) return false;
    // The next host on the same port answers before it writes its port file: the dead one's is not its.
    if (file.pid === this.lostPid && !processExists(file.pid)) return false;
    const url = `http://127.0.0.1:${file.port}`;
    const probe = new SatchelClient(url, { timeoutMs: 1_500 });
    try {
      if ((await probe.health()) !== 'ok') return false;
    } catch {
      return false;
    } finally {
      probe.dispose();
    }
    if (this.outdated(file)) {
      this.logger.info(`The Satchel host (pid ${file.pid}) is version ${file.version ?? '?'}, this window's is ${this.options.version}: starting this version's.`);
      await terminate(this.options.dataDir, file);
      return false;
    }
    const socket = await openPresence(url);
    if (!socket) return false;
    if (this.disposed || this.attached) {
      socket.terminate();
      return this.attached !== undefined;
    }
    this.attached = { url, port: file.port, pid: file.pid, socket };
    socket.once('close', () => void this.lost(socket));
    this.backoffMs = 0;
    this.announceAttached(file);
    return true;
  }

  /** A host a window started from another version of the extension, which this lead did not start itself. */
  private outdated(file: PortFile): boolean {
    const version = this.options.version;
    return this.lead !== undefined && file.managed === true && version !== undefined && file.version !== version && this.child?.pid !== file.pid;
  }

  private announceAttached(file: PortFile): void {
    const attached = this.attached;
    if (!attached) return;
    const notice = this.notice();
    if (notice.notice) this.logger.warn(notice.notice);
    const base = { url: attached.url, port: attached.port, pid: file.pid, ...notice };
    this.set(this.lead ? { kind: 'host', ...base } : { kind: 'client', ...base, ...(this.cannotHost ? { cannotHost: this.cannotHost } : {}) });
  }

  /** The presence socket closed: the host ended (or was stopped). The lead starts another at once. */
  private async lost(socket: WebSocket): Promise<void> {
    const was = this.attached;
    if (was?.socket !== socket || this.disposed) return;
    if (this.replacing) {
      this.attached = undefined;
      return;
    }
    // A closed socket is not always a dead host: one that missed the host's pings (an extension host
    // frozen for half a minute) is dropped by it. The same host answering again keeps the connection.
    const again = readPortFile(this.options.dataDir)?.pid === was.pid ? await openPresence(was.url) : undefined;
    if (again && this.attached === was && !this.disposed) {
      this.attached = { ...was, socket: again };
      again.once('close', () => void this.lost(again));
      this.logger.info(`The connection to the Satchel host (pid ${was.pid}) dropped and was opened again.`);
      return;
    }
    again?.terminate();
    if (this.attached !== was || this.disposed) return;
    const { pid, port } = was;
    this.attached = undefined;
    this.lostAt = Date.now();
    this.lostPid = pid;
    // The child's exit is reported after its socket closed, later still on a busy machine: its
    // wait status says how it ended. A host this window did not start is waited for no longer.
    const ownChild = this.child?.pid === pid;
    void Promise.race([ownChild ? this.childExited : Promise.resolve(), delay(ownChild ? 1_000 : 0)]).then(() => {
      if (this.disposed) return;
      const how = this.child?.pid === pid && this.childExit ? ` (${this.childExit})` : '';
      this.pendingNotice = `The Satchel host (pid ${pid}, port ${port}) stopped${how}`;
      this.logger.warn(`${this.pendingNotice}; ${this.lead ? 'starting it again' : 'waiting for it to start again'}.`);
      if (this.lead && this.tooManyStops()) {
        this.hostingFailed(new Error(`The Satchel host stopped ${CRASHES_ALLOWED} times in ${CRASH_WINDOW_MS / 60_000} minutes, so it is not started again; its log is host.log in ${this.options.dataDir}. Retry starts it again.`));
        return;
      }
      // A window that cannot start one goes straight to `failed` (look() says so).
      if (!this.attached && !this.cannotHost) this.set({ kind: 'waiting', notice: `${this.pendingNotice}; ${this.lead ? 'starting it again' : 'waiting for it'}.` });
      void this.look();
    });
  }

  private tooManyStops(): boolean {
    const now = Date.now();
    this.stops.push(now);
    while (this.stops.length > 0 && this.stops[0]! < now - CRASH_WINDOW_MS) this.stops.shift();
    return this.stops.length >= CRASHES_ALLOWED;
  }

  /** Whether the host last seen to stop still has a process (it holds the host lock until it is gone), within STOPPING_MAX_MS. */
  private stillStopping(): boolean {
    const pid = this.lostPid;
    return pid !== undefined && pid !== process.pid && Date.now() < this.lostAt + STOPPING_MAX_MS && processExists(pid);
  }

  private async startHost(): Promise<void> {
    if (this.starting || this.disposed) return this.starting;
    if (Date.now() < this.notBefore || this.stillStopping()) {
      if (this.current.kind !== 'waiting') this.set({ kind: 'waiting', ...this.notice() });
      return;
    }
    this.starting = this.runHost().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Starts the host process and waits until it serves or ends (a large store may take long to open). */
  private async runHost(): Promise<void> {
    let spawned;
    try {
      spawned = spawnDataHost(this.options.command, this.options, this.nodeFlags);
    } catch (error) {
      this.hostingFailed(error);
      return;
    }
    const { child, logStart } = spawned;
    this.child = child;
    this.childExit = undefined;
    this.logger.info(`Started the Satchel host (pid ${child.pid ?? '?'}) with ${this.options.command.execPath}`);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('error', (error) => {
        this.childExit = error.message;
        resolve({ code: null, signal: null });
      });
      child.once('exit', (code, signal) => {
        this.childExit = signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve({ code, signal });
      });
    });
    this.childExited = exited;
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void exited.then((result) => (ended = result));
    if (this.current.kind !== 'waiting' && this.current.kind !== 'starting') this.set({ kind: 'waiting', ...this.notice() });
    for (;;) {
      if (this.disposed) return;
      if (await this.attach()) return;
      if (ended) break;
      await Promise.race([exited, delay(50)]);
    }
    if (ended.code === EXIT_SERVED_ELSEWHERE) {
      // Another process holds the host lock (a CLI starting, a backup): wait for its port file.
      this.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(SERVED_ELSEWHERE_BACKOFF_MS, this.backoffMs * 2));
      this.notBefore = Date.now() + this.backoffMs;
      if (this.current.kind !== 'waiting') this.set({ kind: 'waiting', ...this.notice() });
      return;
    }
    const log = hostLogSince(this.options.dataDir, logStart);
    if (this.nodeFlags.length > 0 && refusedNodeFlag(ended.code, log, this.nodeFlags)) {
      this.logger.warn(`This runtime does not take ${this.nodeFlags.join(' ')}: starting the Satchel host without ${this.nodeFlags.length > 1 ? 'them' : 'it'} (${log.trim()}).`);
      this.nodeFlags = [];
      return this.runHost();
    }
    this.hostingFailed(errorOfExit(ended.code, ended.signal, log));
  }

  private hostingFailed(error: unknown): void {
    this.cannotHost = asError(error);
    this.logger.error('The Satchel host could not start', error);
    this.set({ kind: 'failed', error: this.cannotHost });
  }

  /** A window that is not the lead takes the lead when its window goes. */
  private standForLead(): void {
    const poll = (this.options.probeIntervalMs ?? 250) * 4;
    HostLock.acquire(this.options.dataDir, this.standby.signal, poll, undefined, LEAD_LOCK_FILE).then(
      (lock) => {
        if (this.disposed) {
          lock.dispose();
          return;
        }
        this.lead = lock;
        this.logger.info('This window now leads: it starts the Satchel host when none runs.');
        const file = this.attached ? readPortFile(this.options.dataDir) : undefined;
        if (file) this.announceAttached(file);
        else void this.look();
      },
      (error: unknown) => {
        if (this.standby.signal.aborted) return;
        this.cannotHost = asError(error);
        this.logger.error('Waiting to lead failed', error);
      },
    );
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      void this.look().finally(() => this.schedule());
    }, this.options.probeIntervalMs ?? 250);
    this.timer.unref?.();
  }

  private notice(): { notice?: string } {
    const said = this.pendingNotice;
    if (said === undefined) return {};
    if (this.attached === undefined) return { notice: `${said}.` };
    this.pendingNotice = undefined;
    const seconds = ((Date.now() - this.lostAt) / 1000).toFixed(1);
    return { notice: `${said} and ${this.lead ? 'was started again' : 'is back'} ${seconds} s later.` };
  }

  private set(role: Role): void {
    this.current = role;
    this.changes.fire(role);
  }

  async stopHost(): Promise<boolean> {
    const file = readPortFile(this.options.dataDir);
    if (!file?.managed) return false;
    // Its successor (with the new settings) starts the next host, not this part with the old ones.
    this.replacing = true;
    return terminate(this.options.dataDir, file);
  }

  async close(): Promise<void> {
    this.disposed = true;
    this.standby.abort();
    clearTimeout(this.timer);
    this.attached?.socket.terminate();
    this.attached = undefined;
    this.lead?.dispose();
    this.lead = undefined;
    this.changes.dispose();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
