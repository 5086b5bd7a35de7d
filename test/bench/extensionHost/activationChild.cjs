// One activation in a stand-in extension host (test/bench/activation.ts): the bundle required and
// activated the way VS Code does (with the manifest beside the bundle's dist/), `vscode` stubbed, then the turn right after activation (the
// data host's discovery starts there, with the first request). Prints one JSON line: the loader's
// split, the require and activate() times (wall and CPU), that turn, and which other files of dist/ it loaded.
// `lingerMs` keeps the process up that long after, so the loader writes its code cache.
//   node activationChild.cjs <dist/extension.cjs> <dataDir> [lingerMs]
'use strict';
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const { installVscode } = require('../../support/vscodeStub.cjs');

const [bundle, dataDir, lingerMs = '0'] = process.argv.slice(2);
installVscode({ dataDirectory: dataDir, 'models.idleUnloadMinutes': 0, 'remote.warnOnRemoteHost': false, 'host.idleMinutes': 0.1 });
// SATCHEL_BENCH_PRELOAD=1: Node's modules the bundle requires are loaded first, as VS Code's extension host
// has them (http, net, tls, crypto, child_process…) before any extension: what is left is Satchel's own.
if (process.env.SATCHEL_BENCH_PRELOAD === '1') {
  const { isBuiltin } = require('node:module');
  const source = require('node:fs').readFileSync(path.join(path.dirname(path.resolve(bundle)), 'extensionMain.cjs'), 'utf8');
  for (const [, name] of source.matchAll(/require\("([^"]+)"\)/g)) if (isBuiltin(name)) require(name);
}
// VS Code hands activate() the manifest it has already read.
const manifest = require(path.resolve(path.dirname(bundle), '..', 'package.json'));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const extension = require(path.resolve(bundle));
const t1 = performance.now();
const api = extension.activate({ subscriptions: [], extensionPath: path.resolve(path.dirname(bundle), '..'), extension: { packageJSON: manifest, extensionKind: 1 } });
const t2 = performance.now();
// CPU time (user + system) of require and activate(): what the machine's other load does not inflate.
const cpu = process.cpuUsage(cpu0);
// Queued after activate()'s own setImmediate (the host's discovery), so it measures that turn.
setImmediate(() => {
  const t3 = performance.now();
  const dist = path.dirname(path.resolve(bundle));
  const loaded = Object.keys(require.cache).filter((file) => path.dirname(file) === dist && !/extension(Main)?\.cjs$/.test(file));
  const round = (value) => Math.round(value * 10) / 10;
  const { compileMs, runMs, codeCache, own } = api.activation ?? {};
  console.log(
    JSON.stringify({
      compileMs: round(compileMs),
      runMs: round(runMs),
      codeCache,
      requireMs: round(t1 - t0),
      activateMs: round(t2 - t1),
      cpuMs: round((cpu.user + cpu.system) / 1000),
      // Satchel's own share on the main thread's clocks (src/extension/threadClock.ts): loading and activate().
      ownWallMs: own?.wallMs,
      ownCpuMs: own?.cpuMs,
      firstTurnMs: round(t3 - t2),
      alsoLoaded: loaded.map((file) => path.basename(file)),
    }),
  );
  setTimeout(() => process.exit(0), Number(lingerMs));
});
