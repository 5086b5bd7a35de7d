// A stand-in extension host for test/bench/extensionHost.ts: one Node process that loads an
// extension bundle the way VS Code does (require, then activate) with the `vscode` module stubbed,
// and runs the scripted workload through the extension's own client (api.server.connection.client)
// while perf_hooks.monitorEventLoopDelay watches this process's event loop. With no bundle it runs
// the same timers without Satchel (the machine's floor). Prints one JSON line.
//   node --expose-gc child.cjs <bundle|-> <dataDir> <snippetsDir: N.json per snippet and names.json>
'use strict';
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');
const { readFileSync } = require('node:fs');
const { installVscode } = require('../../support/vscodeStub.cjs');
const path = require('node:path');

const [bundle, dataDir, snippetsDir] = process.argv.slice(2);
const KEYSTROKE_MS = 50;
const LINE = 'const response = await fetchWithRetry(endpoint, { attempts: 3 });';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (ns) => Math.round(ns / 1e4) / 100;
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) / 1024);
  } catch {
    return NaN;
  }
}

async function main() {
  const rssBefore = process.memoryUsage().rss;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const phases = {};
  const phase = async (name, run) => {
    histogram.reset();
    const started = performance.now();
    await run();
    phases[name] = { ms: Math.round(performance.now() - started), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  };
  const whole = monitorEventLoopDelay({ resolution: 10 });
  whole.enable();
  let api;
  let activation = {};
  await phase('start', async () => {
    if (bundle === '-') return sleep(3_000);
    installVscode({ dataDirectory: dataDir, 'models.idleUnloadMinutes': 0, 'remote.warnOnRemoteHost': false, 'host.idleMinutes': 0.1 });
    const manifest = require(path.resolve(path.dirname(bundle), '..', 'package.json'));
    const t0 = performance.now();
    const extension = require(path.resolve(bundle));
    const t1 = performance.now();
    api = extension.activate({ subscriptions: [], extensionPath: path.resolve(path.dirname(bundle), '..'), extension: { packageJSON: manifest, extensionKind: 1 } });
    activation = { requireMs: Math.round(t1 - t0), activateMs: Math.round(performance.now() - t1), ...(api.activation ?? {}) };
    while (!api.server.connection) await sleep(20);
  });
  // Satchel's fixed cost (its code, Node's modules it loads, the connection), before any workload.
  global.gc?.();
  const atStart = process.memoryUsage();
  const rssAfterStartMb = Math.round((atStart.rss - rssBefore) / 2 ** 20);
  const heapAtStartMb = Math.round(atStart.heapUsed / 2 ** 20);
  const client = api?.server.connection.client;
  const hostPid = () => (api ? JSON.parse(readFileSync(path.join(dataDir, 'port.json'), 'utf8')).pid : undefined);
  const ticks0 = api ? cpuTicks(hostPid()) : NaN;
  const cpu0 = process.cpuUsage();
  await phase('first search', async () => {
    if (client) await client.assets.search('retry');
  });
  await phase('completion on each keystroke', async () => {
    for (let i = 1; i <= LINE.length; i++) {
      const word = /[\w$]*$/.exec(LINE.slice(0, i))[0];
      const asked = client && word.length >= 2 ? client.snippets.completions(word, { language: 'typescript', limit: 20 }) : undefined;
      await Promise.all([asked, sleep(KEYSTROKE_MS)]);
    }
  });
  const application = api ? (await api.server.application()).id : undefined;
  await phase('50 copies (connector)', async () => {
    for (let i = 0; i < 50; i++) {
      const text = `export function copied${i}(items) {\n  return items.filter((item) => item.id % ${i + 2} === 0).map((item) => item.name);\n}\n`;
      await Promise.all([client?.connector.suggest(application, text, 'ts'), sleep(100)]);
    }
  });
  await phase('50 saves', async () => {
    for (let i = 0; i < 50; i++) {
      const saved = client?.assets.createFromText({ text: `const saved${i} = ${i}; // a save`, application: await api?.server.application(), language: 'ts', name: `save ${i}` });
      await Promise.all([saved, sleep(100)]);
    }
  });
  await phase('10k import', async () => {
    if (!client) return sleep(20_000);
    const names = JSON.parse(readFileSync(path.join(snippetsDir, 'names.json'), 'utf8'));
    await client.imports.importFiles(names.map((name, i) => ({ name, read: async () => JSON.parse(readFileSync(path.join(snippetsDir, `${i}.json`), 'utf8')) })));
  });
  await phase('settle 10 s', () => sleep(10_000));
  const pid = hostPid();
  // Where the process's memory is (heap, buffers outside it); SATCHEL_HEAP_SNAPSHOT=FILE writes a heap
  // snapshot there to say what holds it.
  const memory = process.memoryUsage();
  if (process.env.SATCHEL_HEAP_SNAPSHOT) require('node:v8').writeHeapSnapshot(process.env.SATCHEL_HEAP_SNAPSHOT);
  // What stays once garbage is collected (with --expose-gc): what the process holds, not what it last let go.
  global.gc?.();
  const afterGc = process.memoryUsage();
  const rssAfterGc = afterGc.rss;
  const result = {
    bundle,
    activation,
    phases,
    whole: { p50: ms(whole.percentile(50)), p99: ms(whole.percentile(99)), max: ms(whole.max) },
    extensionHostRssAddedMb: Math.round((memory.rss - rssBefore) / 2 ** 20),
    extensionHostRssAddedAtStartMb: rssAfterStartMb,
    extensionHostHeapAtStartMb: heapAtStartMb,
    extensionHostRssAddedAfterGcMb: global.gc ? Math.round((rssAfterGc - rssBefore) / 2 ** 20) : undefined,
    // The JS heap Satchel still uses once garbage is collected: what it holds, whatever V8 kept of its peak.
    extensionHostHeapAfterGcMb: global.gc ? Math.round(afterGc.heapUsed / 2 ** 20) : undefined,
    extensionHostMemoryMb: Object.fromEntries(['heapUsed', 'heapTotal', 'external', 'arrayBuffers'].map((key) => [key, Math.round(memory[key] / 2 ** 20)])),
    extensionHostCpuSeconds: (() => { const cpu = process.cpuUsage(cpu0); return Math.round((cpu.user + cpu.system) / 1e4) / 100; })(),
    dataHost: pid === undefined ? null : pid === process.pid ? 'in the extension host' : { pid, rssMb: rssMb(pid), cpuSeconds: (cpuTicks(pid) - ticks0) / 100 },
  };
  console.log(JSON.stringify(result));
  if (api) await require(path.resolve(bundle)).deactivate();
  if (typeof pid === 'number' && pid !== process.pid) process.kill(pid, 'SIGTERM');
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
