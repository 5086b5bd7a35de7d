/**
 * The one-off secrets scan of a library left wholly pending (what the upgrade leaves, and what the
 * day bench's library holds): opens a copy of a data directory with the background scan off, runs
 * `scanPending` to the end (or `--seconds`) and prints one JSON line: snippets scanned, wall and CPU
 * seconds, snippets a second.
 *
 *   cp -r out/bench-day/library-100000 /tmp/lib && ./node_modules/.bin/node --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning test/bench/secretsBackScan.ts /tmp/lib [--seconds=N]
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { Satchel } from '../../src/core/satchel.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { seconds: { type: 'string' } } });
const dataDir = positionals[0];
if (dataDir === undefined) throw new Error('usage: secretsBackScan.ts <data dir (a copy)> [--seconds=N]');

const core = Satchel.open({ dataDir, secretsScan: false, importWorker: false, keepBackups: 0 });
try {
  const before = core.assets.secrets.progress().pending;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const signal = values.seconds === undefined ? undefined : AbortSignal.timeout(Number(values.seconds) * 1000);
  const progress = await core.assets.secrets.scanPending(signal === undefined ? {} : { signal });
  const seconds = (performance.now() - wall) / 1000;
  const used = process.cpuUsage(cpu);
  const scanned = before - progress.pending;
  console.log(
    JSON.stringify({
      pending: before,
      scanned,
      left: progress.pending,
      wallSeconds: +seconds.toFixed(1),
      cpuSeconds: +((used.user + used.system) / 1e6).toFixed(1),
      perSecond: Math.round(scanned / seconds),
      load: loadavg().map((l) => +l.toFixed(2)),
    }),
  );
} finally {
  await core.close();
}
