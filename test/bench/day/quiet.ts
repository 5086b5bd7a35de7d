/**
 * Before a window starts, the machine is left to finish what the bench itself did (copying a
 * 940 MB library, writing the import's files, building the driver): the kernel writes those pages
 * back for tens of seconds, and a window started meanwhile shares the two cores with that. A user's
 * editor does not start right after such a copy; both runs of a day start after the same wait.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Busy share of all cores over the interval, from /proc/stat (Linux); undefined elsewhere. */
async function busyShare(intervalMs: number): Promise<number | undefined> {
  const read = (): { busy: number; total: number } | undefined => {
    try {
      const fields = readFileSync('/proc/stat', 'latin1').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
      // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
      const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
      return { busy: total - fields[3]! - fields[4]!, total };
    } catch {
      return undefined;
    }
  };
  const before = read();
  await sleep(intervalMs);
  const after = read();
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

export interface Quiet {
  readonly waitedS: number;
  /** The busy share of the last second waited (0–1), or undefined where it cannot be read. */
  readonly busy: number | undefined;
  readonly reached: boolean;
}

/** Flushes written pages, then waits until the cores were under `threshold` busy for `seconds` in a row (at most `maxS`). */
export async function untilQuiet({ threshold = 0.2, seconds = 3, maxS = 90 } = {}): Promise<Quiet> {
  const started = Date.now();
  execFileSync('sync');
  let calm = 0;
  let busy: number | undefined;
  while ((Date.now() - started) / 1000 < maxS) {
    busy = await busyShare(1000);
    if (busy === undefined) break;
    calm = busy < threshold ? calm + 1 : 0;
    if (calm >= seconds) return { waitedS: Math.round((Date.now() - started) / 100) / 10, busy, reached: true };
  }
  return { waitedS: Math.round((Date.now() - started) / 100) / 10, busy, reached: busy === undefined };
}
