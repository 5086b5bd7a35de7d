/**
 * Preloaded into reliability hosts (`node --require loopWatch.cjs dist/cli.cjs …`): a timer every
 * 10 ms measures how long the host's event loop was really held, apart from the machine's load.
 * Between two ticks, the wall time minus the time the main thread spent runnable but waiting for a
 * CPU (Linux's /proc/<pid>/task/<pid>/schedstat, second field) is what the host itself spent: on
 * its CPU work or blocked (a lock, a synchronous read). A busy machine stretches only the first.
 * Each gap past 50 ms is printed on stderr as `[loop] at=<epoch ms> wall=<ms> held=<ms>`
 * (healthProbe.ts reads the lines of its window). Without schedstat, held is the wall time.
 */
'use strict';
const { readFileSync } = require('node:fs');

const INTERVAL_MS = 10;
const REPORT_FROM_MS = 50;
const schedstat = `/proc/${process.pid}/task/${process.pid}/schedstat`;

function waitingNs() {
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[1]);
  } catch {
    return undefined;
  }
}

let lastWall = performance.now();
let lastWaiting = waitingNs();
const tick = () => {
  const wall = performance.now();
  const waiting = waitingNs();
  const gap = wall - lastWall - INTERVAL_MS;
  if (gap > REPORT_FROM_MS) {
    const queued = waiting !== undefined && lastWaiting !== undefined ? (waiting - lastWaiting) / 1e6 : 0;
    process.stderr.write(`[loop] at=${Date.now()} wall=${Math.round(gap)} held=${Math.round(Math.max(0, gap - queued))}\n`);
  }
  lastWall = wall;
  lastWaiting = waiting;
};
// `--require` preloads this into the host's worker threads too; their loops are meant to be held
// (a 50 MB parse) and schedstat above is the main thread's, so only the main thread is watched.
if (require('node:worker_threads').isMainThread) setInterval(tick, INTERVAL_MS).unref();
