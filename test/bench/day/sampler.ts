/**
 * What the scripted day records per phase, from inside the extension host: the event loop's delay
 * (perf_hooks.monitorEventLoopDelay, reset between phases), this process's RSS and CPU, and the data
 * host's RSS (sampled, the highest seen) and CPU (its own /proc figures: it is another process).
 */
import { monitorEventLoopDelay, performance, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { fullCollection } from '../../../src/hosting/idleCollection.ts';

export interface PhaseFigures {
  readonly ms: number;
  /** Event-loop delay of the extension host, ms (10 ms resolution: 10.1 is on time). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly extHostRssMb: number;
  /** The extension host's JS heap in use at the phase's end (what a full GC has to mark). */
  readonly extHostHeapMb?: number;
  readonly extHostCpuS: number;
  readonly dataHostRssMb?: number;
  readonly dataHostPeakRssMb?: number;
  readonly dataHostCpuS?: number;
  /** The data host's child processes (import, encoder, git): highest sampled RSS summed, and CPU. */
  readonly childrenPeakRssMb?: number;
  readonly childrenCpuS?: number | undefined;
  /**
   * The extension host's garbage collections in the phase (V8's own timings, whoever's garbage):
   * the longest and the total, ms. A hold in the delay figures that matches the longest is a
   * collection's, not any extension's code.
   */
  readonly extHostGcMaxMs?: number;
  readonly extHostGcMs?: number;
  /** Pages the extension host had to read back from disk in the phase (/proc's majflt). */
  readonly extHostMajorFaults?: number;
  /** Time the extension host's main thread was ready to run but waited for a core (/proc's schedstat run_delay), ms. */
  readonly extHostWaitedMs?: number;
  readonly note?: string;
}

const RESOLUTION_MS = 10;
const SAMPLE_MS = 250;
const round = (value: number, places = 1): number => Math.round(value * 10 ** places) / 10 ** places;
const ms = (ns: number): number => round(ns / 1e6, 1);

/** Resident memory of a process, MB (from /proc; undefined when it is gone). */
export function rssMbOf(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : round(Number(kb) / 1024, 0);
  } catch {
    return undefined;
  }
}

/** The fields of a /proc/<pid>/stat line after the command's name (state first); the name may hold ') '. */
export function statFieldsOf(line: string): string[] {
  return line.slice(line.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU ticks (10 ms) of a stat line's fields (utime and stime: the line's 14th and 15th). */
export function cpuTicksOf(fields: readonly string[]): number {
  return Number(fields[11]) + Number(fields[12]);
}

/** The fields of /proc/<pid>/stat after the command's name (state first); undefined when the process is gone. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    return statFieldsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** User + system CPU of a process, seconds (clock ticks of 10 ms). */
export function cpuSecondsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && cpuTicksOf(fields) / 100;
}

/** Page faults a process has had that read from disk (majflt). */
export function majorFaultsOf(pid: number | 'self'): number | undefined {
  const fields = statFields(pid);
  return fields && Number(fields[9]);
}

/** Nanoseconds the main thread of a process has waited for a core while ready to run (schedstat's run_delay). */
export function runDelayNsOf(pid: number | 'self'): number | undefined {
  try {
    const delay = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(delay) ? delay : undefined;
  } catch {
    return undefined;
  }
}

/** The processes a process started and still runs (the import child, the encoder, git). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds of the children a process has waited for (cutime + cstime): the ones that already exited. */
function reapedCpuSecondsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && (Number(fields[13]) + Number(fields[14])) / 100;
}

/** The data host's children's CPU so far: what exited and was waited for, plus each living one's own. */
class ChildrenCpu {
  private readonly seen = new Map<number, number>();
  private reaped0: number | undefined;
  private readonly start = new Map<number, number>();
  private readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
    this.reaped0 = reapedCpuSecondsOf(pid);
    for (const child of childrenOf(pid)) this.start.set(child, cpuSecondsOf(child) ?? 0);
  }

  /** Called on every sample: a child's last reading before it exits. */
  sample(): void {
    for (const child of childrenOf(this.pid)) {
      if (!this.start.has(child)) this.start.set(child, 0);
      this.seen.set(child, cpuSecondsOf(child) ?? this.seen.get(child) ?? 0);
    }
  }

  /** Seconds since the phase began. Exited children are counted by the reaped figure (living ones by their own). */
  total(): number | undefined {
    this.sample();
    const reaped = reapedCpuSecondsOf(this.pid);
    if (reaped === undefined || this.reaped0 === undefined) return undefined;
    const living = new Set(childrenOf(this.pid));
    let sum = reaped - this.reaped0;
    for (const child of living) sum += (this.seen.get(child) ?? 0) - (this.start.get(child) ?? 0);
    return round(sum, 2);
  }
}

/** The extension host's memory, MB, right after full collections. */
export interface SettledMemory {
  readonly rssMb: number;
  /** What V8 keeps committed for its heap, and what of it is in use. */
  readonly heapTotalMb: number;
  readonly heapUsedMb: number;
  /** Memory outside V8's heap that JS objects hold (Buffers among it). */
  readonly externalMb: number;
}

/**
 * The extension host's memory after two full collections, as the data host makes them
 * (idleCollection.ts; the second frees what the first one's finalizers let go), taken once the
 * day's delay figures are read, since a collection holds the loop: unlike the raw RSS at a phase's
 * end, not moved by when VS Code's own collections last ran, which shifts that figure 30–50 MB
 * between runs of the same code. Undefined where a collection cannot be had on demand.
 */
export function settledMemory(): SettledMemory | undefined {
  const collect = fullCollection();
  if (collect === undefined) return undefined;
  collect();
  collect();
  const memory = process.memoryUsage();
  const mb = (bytes: number): number => round(bytes / 2 ** 20, 0);
  return { rssMb: mb(memory.rss), heapTotalMb: mb(memory.heapTotal), heapUsedMb: mb(memory.heapUsed), externalMb: mb(memory.external) };
}

export class DaySampler {
  private readonly phaseDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly wholeDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly dataHostPid: () => number | undefined;
  private peak = 0;
  private childrenPeak = 0;
  private children: ChildrenCpu | undefined;
  private timer: NodeJS.Timeout | undefined;
  private gcMax = 0;
  private gcTotal = 0;
  private readonly gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      this.gcMax = Math.max(this.gcMax, entry.duration);
      this.gcTotal += entry.duration;
    }
  });
  readonly phases: Record<string, PhaseFigures> = {};

  constructor(dataHostPid: () => number | undefined) {
    this.dataHostPid = dataHostPid;
    this.phaseDelay.enable();
    this.wholeDelay.enable();
    this.gcObserver.observe({ entryTypes: ['gc'] });
    // The same sampling timer runs with and without Satchel, so it is part of both floors.
    this.timer = setInterval(() => {
      const pid = this.dataHostPid();
      const rss = pid === undefined ? undefined : rssMbOf(pid);
      if (rss !== undefined) this.peak = Math.max(this.peak, rss);
      if (pid !== undefined) this.childrenPeak = Math.max(this.childrenPeak, childrenOf(pid).reduce((sum, child) => sum + (rssMbOf(child) ?? 0), 0));
      this.children?.sample();
    }, SAMPLE_MS);
  }

  async phase(name: string, run: () => Promise<string | void>): Promise<void> {
    const pid = this.dataHostPid();
    const hostCpu0 = pid === undefined ? undefined : cpuSecondsOf(pid);
    const cpu0 = process.cpuUsage();
    this.peak = 0;
    this.childrenPeak = 0;
    this.children = pid === undefined ? undefined : new ChildrenCpu(pid);
    this.gcMax = 0;
    this.gcTotal = 0;
    const faults0 = majorFaultsOf('self');
    const waited0 = runDelayNsOf('self');
    this.phaseDelay.reset();
    const started = performance.now();
    const note = (await run()) ?? undefined;
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const faults1 = majorFaultsOf('self');
    const waited1 = runDelayNsOf('self');
    const after = this.dataHostPid();
    const hostCpu1 = after === undefined ? undefined : cpuSecondsOf(after);
    const rss = after === undefined ? undefined : rssMbOf(after);
    this.phases[name] = {
      ms: Math.round(elapsed),
      p50: ms(this.phaseDelay.percentile(50)),
      p99: ms(this.phaseDelay.percentile(99)),
      max: ms(this.phaseDelay.max),
      extHostRssMb: round(process.memoryUsage().rss / 2 ** 20, 0),
      extHostHeapMb: round(process.memoryUsage().heapUsed / 2 ** 20, 0),
      extHostCpuS: round((cpu.user + cpu.system) / 1e6, 2),
      ...(rss !== undefined ? { dataHostRssMb: rss, dataHostPeakRssMb: Math.max(this.peak, rss) } : {}),
      // A host restarted within the phase (another pid) has no comparable CPU figure.
      ...(hostCpu0 !== undefined && hostCpu1 !== undefined && pid === after ? { dataHostCpuS: round(hostCpu1 - hostCpu0, 2) } : {}),
      ...(this.children && pid === after ? { childrenPeakRssMb: this.childrenPeak, childrenCpuS: this.children.total() } : {}),
      extHostGcMaxMs: round(this.gcMax, 1),
      extHostGcMs: round(this.gcTotal, 0),
      ...(faults0 !== undefined && faults1 !== undefined ? { extHostMajorFaults: faults1 - faults0 } : {}),
      ...(waited0 !== undefined && waited1 !== undefined ? { extHostWaitedMs: round((waited1 - waited0) / 1e6, 0) } : {}),
      ...(note ? { note } : {}),
    };
    console.log(`[day] ${name}: ${JSON.stringify(this.phases[name])}`);
  }

  whole(): { p50: number; p99: number; max: number } {
    return { p50: ms(this.wholeDelay.percentile(50)), p99: ms(this.wholeDelay.percentile(99)), max: ms(this.wholeDelay.max) };
  }

  dispose(): void {
    clearInterval(this.timer);
    this.gcObserver.disconnect();
    this.phaseDelay.disable();
    this.wholeDelay.disable();
  }
}
