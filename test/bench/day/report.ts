/** The day's table: each phase with and without Satchel, then the figures the goals name, judged. */
import { EXTENSION_ID, type DayResult } from './dayTypes.ts';
import { describeActivation, describeOwnShare, vscodeFigureMs } from './activationSplit.ts';

export interface RunOutcome {
  readonly result: DayResult;
  readonly loadBefore: string;
  readonly loadAfter: string;
  /** The Running Extensions editor's text for Satchel ("Activation: 35ms"), or why it is missing. */
  readonly vscodeActivation?: string | undefined;
  /**
   * The same editor's text for the window's development extension, an empty extension that activates
   * on the same event as Satchel (run.ts, CONTROL_NAME): VS Code's figure for code that does nothing.
   */
  readonly controlActivation?: string | undefined;
  /** How busy the machine was while the figure was taken, and with what (machineSampler.ts). */
  readonly busyAtActivation?: string | undefined;
}

const GOALS = { activationMs: 50, addedP99Ms: 10, addedMaxMs: 50, addedRssMb: 30, dataHostMb: 150 };
const met = (ok: boolean): string => (ok ? 'yes' : '**no**');

export function printDay(withSatchel: RunOutcome, without: RunOutcome, run: { size: number; minutes: string; firstStart?: RunOutcome }): void {
  const w = withSatchel.result;
  const o = without.result;
  const lines: string[] = [];
  lines.push(
    `| phase (${run.size} snippets) | time | with Satchel: delay p50 / p99 / max | without: p50 / p99 / max | extension host's longest GC; its wait for a core; pages read back (with / without) | data host RSS (peak) / CPU | its children: peak RSS / CPU | notes |`,
    '|---|---|---|---|---|---|---|---|',
  );
  for (const [name, p] of Object.entries(w.phases)) {
    const b = o.phases[name];
    const host = p.dataHostRssMb === undefined ? '' : `${p.dataHostRssMb} (${p.dataHostPeakRssMb}) MB / ${p.dataHostCpuS ?? '?'} s`;
    const children = p.childrenPeakRssMb === undefined ? '' : `${p.childrenPeakRssMb} MB / ${p.childrenCpuS ?? '?'} s`;
    const gc = `${p.extHostGcMaxMs ?? '?'} / ${b?.extHostGcMaxMs ?? '?'} ms; ${p.extHostWaitedMs ?? '?'} / ${b?.extHostWaitedMs ?? '?'} ms; ${p.extHostMajorFaults ?? '?'} / ${b?.extHostMajorFaults ?? '?'}`;
    lines.push(`| ${name} | ${(p.ms / 1000).toFixed(1)} s | ${p.p50} / ${p.p99} / ${p.max} ms | ${b ? `${b.p50} / ${b.p99} / ${b.max} ms` : ''} | ${gc} | ${host} | ${children} | ${p.note ?? ''} |`);
  }
  lines.push(`| whole day | | ${w.whole.p50} / ${w.whole.p99} / ${w.whole.max} ms | ${o.whole.p50} / ${o.whole.p99} / ${o.whole.max} ms | | | | |`);
  console.log(`\n${lines.join('\n')}\n`);

  const phases = Object.entries(w.phases);
  /** The phase whose figure Satchel's run exceeds most, with what the added figure is. */
  const worstAdded = (key: 'p99' | 'max'): { added: number; phase: string } =>
    phases
      .map(([name, p]) => ({ added: p[key] - (o.phases[name]?.[key] ?? 0), phase: name }))
      .reduce((worst, next) => (next.added > worst.added ? next : worst));
  const worstP99 = worstAdded('p99');
  const worstMax = worstAdded('max');
  const addedP99 = worstP99.added;
  const addedMax = worstMax.added;
  const last = (r: DayResult) => Object.values(r.phases).at(-1)!;
  const addedRss = last(w).extHostRssMb - last(o).extHostRssMb;
  const peakRss = Math.max(...phases.map(([name, p]) => p.extHostRssMb - (o.phases[name]?.extHostRssMb ?? 0)));
  const settledW = w.settled;
  const settledO = o.settled;
  const dataHostPeak = Math.max(...phases.map(([, p]) => p.dataHostPeakRssMb ?? 0));
  const vscodeMs = vscodeFigureMs(withSatchel.vscodeActivation);
  const a: Partial<NonNullable<DayResult['activation']>> = w.activation ?? {};
  const rounded = (value: unknown): string => (typeof value === 'number' ? value.toFixed(1) : String(value ?? '?'));
  const summary = [
    '| figure | measured | goal | met |',
    '|---|---|---|---|',
    `| activation, as VS Code reports it (Running Extensions), the day's start (code cache ${rounded(a.codeCache)}) | ${withSatchel.vscodeActivation ?? 'not read'} | ≤ ${GOALS.activationMs} ms | ${Number.isNaN(vscodeMs) ? '' : met(vscodeMs <= GOALS.activationMs)} |`,
    ...(run.firstStart ? [firstStartRow(run.firstStart)] : []),
    `| activation, Satchel's own share by the extension host thread's clocks | ${describeOwnShare(a.own)} | | |`,
    `| activation, the machine meanwhile | ${withSatchel.busyAtActivation ?? 'not sampled'} | | |`,
    `| activation, VS Code's figure taken apart (its marks) | ${describeActivation(w.loadMarks, withSatchel.vscodeActivation, a.activateMs, EXTENSION_ID)} | | |`,
    `| activation, the extension's own split | compile ${rounded(a.compileMs)} ms (code cache ${rounded(a.codeCache)}), run ${rounded(a.runMs)} ms, activate() ${rounded(a.activateMs)} ms (${stepsText(a.steps, a.stepsOnCore)}) | | |`,
    // The goal's figure: the delay through the whole day, with Satchel against without it.
    `| extension-host delay added by Satchel through the whole day: p99 | ${(w.whole.p99 - o.whole.p99).toFixed(1)} ms (${w.whole.p99} vs ${o.whole.p99}) | ≤ ${GOALS.addedP99Ms} ms | ${met(w.whole.p99 - o.whole.p99 <= GOALS.addedP99Ms)} |`,
    `| extension-host delay added by Satchel through the whole day: max | ${(w.whole.max - o.whole.max).toFixed(1)} ms (${w.whole.max} vs ${o.whole.max}) | ≤ ${GOALS.addedMaxMs} ms | ${met(w.whole.max - o.whole.max <= GOALS.addedMaxMs)} |`,
    // Stricter, phase by phase: a phase in which VS Code activates its own language support in one run only reads as added here.
    `| the same, worst phase: p99 | ${addedP99.toFixed(1)} ms (${worstP99.phase}) | ≤ ${GOALS.addedP99Ms} ms | ${met(addedP99 <= GOALS.addedP99Ms)} |`,
    `| the same, worst phase: max | ${addedMax.toFixed(1)} ms (${worstMax.phase}) | ≤ ${GOALS.addedMaxMs} ms | ${met(addedMax <= GOALS.addedMaxMs)} |`,
    `| extension-host RSS added by Satchel: end of day (largest at a phase's end) | ${addedRss} MB (${peakRss} MB); ${last(w).extHostRssMb} vs ${last(o).extHostRssMb} MB | ≤ ${GOALS.addedRssMb} MB | ${met(Math.max(addedRss, peakRss) <= GOALS.addedRssMb)} |`,
    settledW && settledO
      ? `| the same at the day's end after full collections in both runs: RSS added (V8 heap committed, in use; external) | ${settledW.rssMb - settledO.rssMb} MB; ${settledW.rssMb} vs ${settledO.rssMb} MB (heap ${settledW.heapTotalMb - settledO.heapTotalMb} MB committed, ${settledW.heapUsedMb - settledO.heapUsedMb} MB in use; external ${settledW.externalMb - settledO.externalMb} MB) | ≤ ${GOALS.addedRssMb} MB | ${met(settledW.rssMb - settledO.rssMb <= GOALS.addedRssMb)} |`
      : '| the same at the day\'s end after full collections | not measured (no collection on demand in this extension host) | | |',
    `| data host RSS, highest sampled (every 250 ms) through the day | ${dataHostPeak} MB | ≤ ${GOALS.dataHostMb} MB | ${met(dataHostPeak <= GOALS.dataHostMb)} |`,
    `| data host CPU through the day | ${phases.reduce((sum, [, p]) => sum + (p.dataHostCpuS ?? 0), 0).toFixed(1)} s | | |`,
    `| extension host CPU through the day: with / without | ${phases.reduce((s, [, p]) => s + p.extHostCpuS, 0).toFixed(1)} / ${Object.values(o.phases).reduce((s, p) => s + p.extHostCpuS, 0).toFixed(1)} s | | |`,
    `| load average (1/5/15 min) before → after | with: ${withSatchel.loadBefore} → ${withSatchel.loadAfter}; without: ${without.loadBefore} → ${without.loadAfter} | | |`,
    `| run time | ${run.minutes} min in all | | |`,
  ];
  console.log(`${summary.join('\n')}\n`);
}

/** The start before the day, the first after install: the code cache written, as a user sees once per version. */
function firstStartRow(first: RunOutcome): string {
  const ms = vscodeFigureMs(first.vscodeActivation);
  const a = first.result.activation;
  return `| the same on the first start after install (code cache ${a?.codeCache ?? '?'}): ${describeActivation(first.result.loadMarks, first.vscodeActivation, a?.activateMs, EXTENSION_ID)}; ${describeOwnShare(a?.own)} | ${first.vscodeActivation ?? 'not read'} | ≤ ${GOALS.activationMs} ms | ${Number.isNaN(ms) ? '' : met(ms <= GOALS.activationMs)} |`;
}

/** activate()'s parts: each one's wall time, and its time on a core where the figures have it ("views 8.4 (2.4 on a core)"). */
function stepsText(steps: Readonly<Record<string, number>> = {}, onCore: Readonly<Record<string, number>> = {}): string {
  return Object.entries(steps)
    .map(([name, ms]) => `${name} ${ms}${onCore[name] !== undefined ? ` (${onCore[name]} on a core)` : ''}`)
    .join(', ');
}
