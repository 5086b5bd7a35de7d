/**
 * What the machine did around Satchel's activation: every process's CPU time (/proc/<pid>/stat),
 * sampled every 100 ms by the runner while a window starts, so VS Code's activation figure can be
 * read beside how busy the two cores were and with what (Linux only). The sampler's own reads cost
 * about 5% of a core (the kernel sums each process's threads for its stat file), for the first 30 s of a window.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { cpuTicksOf, statFieldsOf } from './sampler.ts';

const TICK_MS = 10; // USER_HZ 100

interface Sample {
  readonly at: number;
  /** CPU ticks per process, keyed by pid. */
  readonly ticks: ReadonlyMap<number, number>;
}

/** A process's role in the bench, from its command line (read once per pid). */
function roleOf(pid: number): string {
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ');
  } catch {
    return 'gone';
  }
  if (/extensionHostProcess|--type=extensionHost/.test(cmdline)) return 'extension host';
  if (/cli\.cjs.*--managed/.test(cmdline)) return 'Satchel data host';
  if (/chrom(e|ium).*--type=renderer/.test(cmdline)) return 'Chromium renderer';
  if (/chrom(e|ium).*--type=gpu/.test(cmdline)) return 'Chromium GPU';
  if (/chrom(e|ium)/.test(cmdline)) return 'Chromium, other';
  if (/code-server|vscode\/out|bootstrap-fork|ptyHost|fileWatcher/.test(cmdline)) return 'code-server, other';
  if (/bench\/day\/run\.ts/.test(cmdline)) return 'bench runner';
  const comm = cmdline.split(' ')[0]?.split('/').at(-1);
  return comm ? comm : 'kernel';
}

export interface BusyDuring {
  readonly fromMs: number;
  readonly toMs: number;
  /** Cores busy on average over the samples covering the span. */
  readonly cores: number;
  /** The busiest roles, cores each. */
  readonly top: ReadonlyArray<readonly [string, number]>;
}

/** Listing /proc costs more than reading the files: new processes are looked for every fifth sample. */
const LIST_EVERY = 5;

export class MachineSampler {
  private readonly samples: Sample[] = [];
  private readonly roles = new Map<number, string>();
  /** Each process's stat file stays open and is read again from its start (one read a sample, not four calls). */
  private readonly statFiles = new Map<number, number>();
  private readonly buffer = Buffer.alloc(4096);
  private readonly timer: NodeJS.Timeout | undefined;

  /** Samples for `forMs` from now (a window's start: its reads would weigh on the day that follows). */
  constructor(intervalMs = 100, forMs = 30_000) {
    if (process.platform !== 'linux') return;
    this.take();
    const until = Date.now() + forMs;
    this.timer = setInterval(() => (Date.now() > until ? this.stop() : this.take()), intervalMs);
  }

  private take(): void {
    const ticks = this.readTicks();
    for (const pid of ticks.keys()) if (!this.roles.has(pid)) this.roles.set(pid, roleOf(pid));
    this.samples.push({ at: Date.now(), ticks });
  }

  stop(): void {
    clearInterval(this.timer);
    for (const pid of [...this.statFiles.keys()]) this.closeStat(pid);
  }

  private readTicks(): Map<number, number> {
    const ticks = new Map<number, number>();
    const pids = this.samples.length % LIST_EVERY === 0 ? readdirSync('/proc').map(Number).filter(Number.isInteger) : [...this.statFiles.keys()];
    for (const pid of pids) {
      try {
        let fd = this.statFiles.get(pid);
        if (fd === undefined) this.statFiles.set(pid, (fd = openSync(`/proc/${pid}/stat`, 'r')));
        ticks.set(pid, cpuTicksOf(statFieldsOf(this.buffer.toString('latin1', 0, readSync(fd, this.buffer, 0, this.buffer.length, 0)))));
      } catch {
        // Exited between the listing and the read.
        this.closeStat(pid);
      }
    }
    for (const pid of this.statFiles.keys()) if (!ticks.has(pid)) this.closeStat(pid);
    return ticks;
  }

  private closeStat(pid: number): void {
    const fd = this.statFiles.get(pid);
    this.statFiles.delete(pid);
    if (fd !== undefined) closeSync(fd);
  }

  /** CPU use over the samples that cover [fromMs, toMs] (epoch ms), or undefined with too few samples. */
  busyDuring(fromMs: number, toMs: number): BusyDuring | undefined {
    const first = this.samples.findLast((sample) => sample.at <= fromMs);
    const last = this.samples.find((sample) => sample.at >= toMs);
    if (!first || !last || last.at <= first.at) return undefined;
    const byRole = new Map<string, number>();
    let total = 0;
    for (const [pid, ticks] of last.ticks) {
      const used = ticks - (first.ticks.get(pid) ?? 0);
      if (used <= 0) continue;
      total += used;
      const role = this.roles.get(pid) ?? 'unknown';
      byRole.set(role, (byRole.get(role) ?? 0) + used);
    }
    const span = last.at - first.at;
    const cores = (ticks: number): number => Math.round(((ticks * TICK_MS) / span) * 100) / 100;
    const top = [...byRole].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([role, ticks]) => [role, cores(ticks)] as const);
    return { fromMs: first.at, toMs: last.at, cores: cores(total), top };
  }
}

/** "1.8 of 2 cores busy over 300 ms (extension host 0.9, Chromium renderer 0.6, …)". */
export function describeBusy(busy: BusyDuring | undefined, coreCount: number): string {
  if (!busy) return 'the machine not sampled then';
  return `${busy.cores} of ${coreCount} cores busy over the ${busy.toMs - busy.fromMs} ms around it (${busy.top.map(([role, cores]) => `${role} ${cores}`).join(', ')})`;
}
