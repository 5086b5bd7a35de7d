/**
 * Runs the integration suite inside a real VS Code (code-server + headless Chromium): packages the
 * linux-x64 .vsix (or takes --vsix) and installs it once, serves a tiny model for the download tests, bundles the mocha suite,
 * loads it through the smoke-test driver, takes the screenshots the tests ask for, and exits with
 * the suite's result. Prints "N passed, N failed".
 *
 *   node --experimental-strip-types test/integration/host/run.ts [--vsix=FILE] [--timeout=1200] [--verbose]
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { format } from 'node:util';
import { bundleForExtensionHost, ensureHost, linuxVsix, launchChromium, repoRoot, startCodeServer } from './codeServer.ts';
import { writeStubModelExtension } from './stubModel.ts';
import { performMouse, type MouseRequest } from './mouseActions.ts';
import { tinyGguf } from '../../support/gguf.ts';
import { shippedCatalog } from '../../../src/core/models/catalog.ts';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
// The whole suite's bound, not a test's (mocha gives each test 60 s): the suite grows with every
// feature, and a loaded two-core machine runs it at a third of its quiet speed.
const timeoutSec = Number(args.get('timeout') ?? 1200);
const verbose = args.has('verbose');
const started = Date.now();

function bundleSuite(): Promise<string> {
  return bundleForExtensionHost('test/integration/suite/index.ts', 'out/integration/suite.cjs', { external: ['mocha'], sourcemap: true });
}

/** A stand-in for the model hosting site: every catalog file is a tiny GGUF, sent slowly enough to show progress. */
async function modelMirror(): Promise<{ url: string; server: Server }> {
  const gguf = tinyGguf({ seed: 7 });
  const files = new Set(shippedCatalog().map((entry) => entry.file));
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    if (!files.has(name)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': gguf.length });
    const chunk = Math.ceil(gguf.length / 12);
    let offset = 0;
    const timer = setInterval(() => {
      if (offset >= gguf.length || res.destroyed) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write(gguf.subarray(offset, offset + chunk));
      offset += chunk;
    }, 150);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** The data host outlives the windows (its own process group); the run's data directory goes with the run. */
function stopDataHost(dataDir: string): void {
  try {
    const file = JSON.parse(readFileSync(join(dataDir, 'port.json'), 'utf8')) as { pid?: unknown; managed?: unknown };
    if (typeof file.pid === 'number' && file.managed === true) process.kill(file.pid, 'SIGTERM');
  } catch {
    // No host left, or it already left.
  }
}

async function main(): Promise<number> {
  const tools = ensureHost();
  const vsix = linuxVsix(args.get('vsix') ?? process.env.SATCHEL_VSIX);
  const suite = await bundleSuite();
  const mirror = await modelMirror();
  const screenshotDir = resolve(args.get('screenshots') ?? join(repoRoot, 'media/screenshots'));

  const workbench = await startCodeServer(tools, {
    vsix,
    settings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'satchel.models.catalogBaseUrl': mirror.url,
      'satchel.models.idleUnloadMinutes': 0,
      'window.commandCenter': false,
      // code-server runs Satchel on its remote side: the notice for an empty remote library would
      // cover every screenshot. The remote test turns it on.
      'satchel.remote.warnOnRemoteHost': false,
      // No "Your application running on port N is available" notification above the ones tests click.
      'remote.autoForwardPorts': false,
      // Satchel's data hosts (one per data directory the suite uses) leave 30 s after the last window.
      'satchel.host.idleMinutes': 0.5,
    },
    env: { SATCHEL_SCREENSHOT_DIR: screenshotDir },
  });
  // Each run gets its own data directory (settings can't know the temp path in advance).
  const dataDir = join(workbench.tmp, 'satchel-data');
  const workspace = join(workbench.tmp, 'workspace');
  // The development extension is only the stub chat model; Satchel itself is the installed .vsix.
  const devPath = join(workbench.tmp, 'stub-model-extension');
  mkdirSync(workspace, { recursive: true });
  writeStubModelExtension(devPath);
  const settingsFile = join(workbench.tmp, 'udd', 'User', 'settings.json');
  const settings = JSON.parse((await import('node:fs')).readFileSync(settingsFile, 'utf8'));
  writeFileSync(settingsFile, JSON.stringify({ ...settings, 'satchel.dataDirectory': dataDir }, null, 1));
  writeFileSync(
    join(workspace, 'retry.ts'),
    'export async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {\n  let lastError: unknown;\n  for (let i = 0; i < attempts; i++) {\n    try {\n      return await fn();\n    } catch (error) {\n      lastError = error;\n      await new Promise((r) => setTimeout(r, 2 ** i * 100));\n    }\n  }\n  throw lastError;\n}\n',
  );

  const browser = await launchChromium(tools);
  let passed = 0;
  let failed = 0;
  let pending = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    const result = new Promise<number>((resolveExit, reject) => {
      const killer = setTimeout(() => reject(new Error(`TIMEOUT: no test result after ${timeoutSec}s`)), timeoutSec * 1000);
      browser.on('disconnected', () => reject(new Error('browser disconnected')));
      page.on('crash', () => reject(new Error('page crashed')));
      void page.exposeFunction('codeAutomationExit', (code: number) => {
        clearTimeout(killer);
        resolveExit(code);
      });
      void page.exposeFunction('codeAutomationLog', async (_type: string, logArgs: unknown[]) => {
        const text = format(...logArgs);
        console.log(text);
        const counts = [/^\s*(\d+) passing/m, /^\s*(\d+) failing/m, /^\s*(\d+) pending/m].map((re) => re.exec(text)?.[1]);
        if (counts[0]) passed = Number(counts[0]);
        if (counts[1]) failed = Number(counts[1]);
        if (counts[2]) pending = Number(counts[2]);
        const shot = /\[\[screenshot:([^\]]+)\]\]/.exec(text);
        if (shot) {
          mkdirSync(dirname(shot[1]!), { recursive: true });
          // Out of the way on the title bar (the status bar's corner is the bell, whose tooltip would show).
          await page.mouse.move(700, 4);
          await new Promise((r) => setTimeout(r, 600));
          await page.screenshot({ path: shot[1]! });
          console.log(`[runner] screenshot ${shot[1]}`);
        }
        // A test asks for the real mouse: a drag between views and editors, a hover, a drop (see mouseActions.ts).
        const mouse = /\[\[mouse:(.+)\]\]/.exec(text);
        if (mouse) console.log(`[runner] ${await performMouse(page, JSON.parse(mouse[1]!) as MouseRequest)}`);
        // A test asks for a real click on a notification's button (e.g. a progress's Cancel), in a toast or the open list.
        const click = /\[\[click-notification-button:([^\]]+)\]\]/.exec(text);
        if (click) {
          const button = page.locator('.notification-list-item-buttons-container .monaco-button', { hasText: click[1]! }).first();
          await button.click({ timeout: 10_000 }).then(
            () => console.log(`[runner] clicked ${click[1]}`),
            async (error: unknown) => {
              const shot = join(repoRoot, 'out', 'click-failed.png');
              await page.screenshot({ path: shot });
              console.log(`[runner] could not click ${click[1]} (see ${shot}): ${String(error).split('\n')[0]}`);
            },
          );
        }
      });
    });
    page.on('pageerror', (error: unknown) => verbose && console.error('[pageerror]', String(error)));
    if (verbose) page.on('console', (message: { text(): string }) => console.log('[browser]', message.text()));
    await page.goto(workbench.url({ folder: workspace, devPath: devPath, testsPath: suite }));
    const code = await result.catch((error: unknown) => {
      console.error(String(error));
      return 1;
    });
    if (code !== 0) console.error(`[runner] code-server log tail:\n${workbench.log().slice(-6000)}`);
    return code === 0 && failed === 0 && passed > 0 ? 0 : 1;
  } finally {
    console.log(`\n${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
    await browser.close().catch(() => {});
    mirror.server.close();
    stopDataHost(dataDir);
    await workbench.stop();
    console.log(`[runner] finished after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
}

if (!existsSync(join(repoRoot, 'node_modules'))) throw new Error('Run npm install first.');
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
