/** Small statistics helpers; every latency list is in milliseconds. */

/** The q-quantile (0..1) by linear interpolation between closest ranks; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly count: number;
}

export function latency(values: readonly number[]): Latency {
  return { p50: quantile(values, 0.5), p95: quantile(values, 0.95), count: values.length };
}

/** Per-run latencies summarised as the median of the runs' p50s and p95s. */
export function medianOfRuns(runs: readonly (readonly number[])[]): Latency {
  const summaries = runs.filter((run) => run.length > 0).map(latency);
  return {
    p50: median(summaries.map((s) => s.p50)),
    p95: median(summaries.map((s) => s.p95)),
    count: summaries.reduce((sum, s) => sum + s.count, 0),
  };
}

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
