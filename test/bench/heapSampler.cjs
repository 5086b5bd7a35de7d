/**
 * Where a Node process's memory is, every 250 ms (issue 34): RSS, the JS heap by space, buffers, and
 * the anonymous and file-backed parts of the RSS (/proc/self/status). Preloaded into the data host
 * that bench:host-peaks starts (it passes its environment on), written to HEAP_SAMPLER_OUT:
 *
 *   HEAP_SAMPLER_OUT=/tmp/host.samples NODE_OPTIONS="--require ./test/bench/heapSampler.cjs" \
 *     npm run bench:host-peaks -- --library=out/bench-day/library-100000 --phases=sync --rest=30
 *
 * Only the host (dist/cli.cjs) samples; the bench script itself and other Node processes do not.
 */
'use strict';
const { openSync, readFileSync, writeSync } = require('node:fs');
const { getHeapSpaceStatistics } = require('node:v8');

if (process.env.HEAP_SAMPLER_OUT && /cli\.cjs$/.test(process.argv[1] ?? '')) {
  const out = openSync(process.env.HEAP_SAMPLER_OUT, 'w');
  const started = Date.now();
  const mb = (bytes) => Math.round(bytes / 1048576);
  const kbLine = (status, key) => Math.round(Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) / 1024);
  setInterval(() => {
    const memory = process.memoryUsage();
    const status = readFileSync('/proc/self/status', 'utf8');
    const spaces = getHeapSpaceStatistics()
      .filter((space) => space.space_used_size >= 1048576 || space.space_name === 'new_space')
      .map((space) => `${space.space_name.replace('_space', '')} ${mb(space.space_used_size)}/${mb(space.space_size)}`)
      .join(' ');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    writeSync(out, `${seconds} s rss ${mb(memory.rss)} anon ${kbLine(status, 'RssAnon')} file ${kbLine(status, 'RssFile')} heapTotal ${mb(memory.heapTotal)} heapUsed ${mb(memory.heapUsed)} arrayBuffers ${mb(memory.arrayBuffers)} | ${spaces}\n`);
  }, 250).unref();
}
