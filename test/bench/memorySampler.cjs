// Preloaded into a data host by hostImportSample.ts (--require): every 50 ms it appends the host's
// process.memoryUsage(), its WAL file's size and, when they change, its threads' names to the file
// named in SATCHEL_MEMORY_SAMPLES (Linux: the thread names are read from /proc/self/task).
const fs = require('node:fs');
const path = require('node:path');
const out = fs.openSync(process.env.SATCHEL_MEMORY_SAMPLES, 'a');
const wal = path.join(process.env.SATCHEL_MEMORY_DATA_DIR ?? '.', 'satchel.db-wal');
const mb = (bytes) => (bytes / 1048576).toFixed(1);
let threads = '';
setInterval(() => {
  const now = Date.now();
  const names = fs.readdirSync('/proc/self/task').map((task) => {
    try {
      return fs.readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
    } catch {
      return '?';
    }
  }).sort().join(',');
  if (names !== threads) fs.writeSync(out, `${now} threads ${(threads = names)}\n`);
  const memory = process.memoryUsage();
  const walBytes = fs.statSync(wal, { throwIfNoEntry: false })?.size ?? 0;
  fs.writeSync(out, `${now} wal=${mb(walBytes)} rss=${mb(memory.rss)} heapTotal=${mb(memory.heapTotal)} heapUsed=${mb(memory.heapUsed)} external=${mb(memory.external)} arrayBuffers=${mb(memory.arrayBuffers)}\n`);
}, 50).unref();
