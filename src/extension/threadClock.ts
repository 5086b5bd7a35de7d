/**
 * The extension host's main thread's own clocks, read around Satchel's activation: how long it ran
 * on a core and, on Linux, how long it was ready to run but waited for one. VS Code's activation
 * figure is wall time, and on a busy machine much of a wall millisecond is spent waiting for a core
 * (docs/performance.md, activation): these tell Satchel's work apart from the machine's.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface ThreadClock {
  readonly wallMs: number;
  /**
   * CPU time of this thread, user and system; undefined on a Node without `process.threadCpuUsage` (added
   * in 23.9 and in 22's later releases). Linux brings a running thread's count up to date at its
   * scheduler's ticks, so a span reads to about a millisecond, and a short one can read more than its wall time.
   */
  readonly cpuMs?: number;
  /** Time this thread was runnable but not running (Linux's scheduler statistics); undefined elsewhere. */
  readonly waitedMs?: number;
}

export function readThreadClock(): ThreadClock {
  return { wallMs: performance.now(), cpuMs: threadCpuMs(), waitedMs: threadWaitedMs() };
}

/** Wall and CPU time only: no file is read, for timing the parts of a span (activate()'s steps). */
export function readCpuClock(): ThreadClock {
  return { wallMs: performance.now(), cpuMs: threadCpuMs() };
}

/** The span from `from` to now, in the same three figures, each rounded to 0.1 ms. */
export function since(from: ThreadClock): ThreadClock {
  return between(from, readThreadClock());
}

/** The span between two readings, each figure rounded to 0.1 ms (undefined where either reading lacks it). */
export function between(start: ThreadClock, end: ThreadClock): ThreadClock {
  return combine(end, start, (e, s) => e - s);
}

/** Two spans taken as one (each part undefined if either lacks it). */
export function plus(a: ThreadClock, b: ThreadClock): ThreadClock {
  return combine(a, b, (x, y) => x + y);
}

function combine(a: ThreadClock, b: ThreadClock, op: (x: number, y: number) => number): ThreadClock {
  const part = (x: number | undefined, y: number | undefined): number | undefined => (x === undefined || y === undefined ? undefined : Math.round(op(x, y) * 10) / 10);
  return { wallMs: part(a.wallMs, b.wallMs) ?? 0, cpuMs: part(a.cpuMs, b.cpuMs), waitedMs: part(a.waitedMs, b.waitedMs) };
}

function threadCpuMs(): number | undefined {
  if (typeof process.threadCpuUsage !== 'function') return undefined;
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** `/proc/thread-self/schedstat`: time on a core, time waiting on a run queue (both ns), timeslices. */
function threadWaitedMs(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const waitedNs = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : undefined;
  } catch {
    // Scheduler statistics compiled out of the kernel, or /proc not mounted.
    return undefined;
  }
}
