/** The one check that a piece of work grows about linearly with its input (the brief's "linear time whatever the characters"). */
import assert from 'node:assert/strict';

export interface LinearSizes {
  /** The small and large input sizes, in whatever unit `make` takes; `large` is 16× `small`. */
  readonly small: number;
  readonly large: number;
  /** Milliseconds allowed besides the ratio: a small run of a few ms is within a timer's and a collection's noise. */
  readonly slackMs: number;
  /**
   * Timings of each size, the least kept: one run of the larger size can catch a collection or a
   * busy machine's preemption (93.5 ms against a 0.5 ms small run, at load 9).
   */
  readonly runs?: number;
}

/**
 * Asserts that `fn` on `make(large)` takes less than 64× its time on `make(small)` (plus
 * `slackMs`): 16× the input, linear work is ~16× the time and quadratic ~256×. The inputs are made
 * outside the timing and the small size is run once first to warm up.
 */
export function assertLinear<T>(name: string, make: (size: number) => T, fn: (input: T) => unknown, sizes: LinearSizes): void {
  const { small, large, slackMs, runs = 1 } = sizes;
  assert.equal(large, small * 16, 'the bound is for 16× the input');
  const time = (size: number): number => {
    const input = make(size);
    const started = performance.now();
    fn(input);
    return performance.now() - started;
  };
  const least = (size: number): number => Math.min(...Array.from({ length: runs }, () => time(size)));
  time(small);
  const smallMs = least(small);
  const largeMs = least(large);
  assert.ok(largeMs < 64 * smallMs + slackMs, `${name}: ${small} ${smallMs.toFixed(1)} ms, ${large} ${largeMs.toFixed(1)} ms`);
}
