/**
 * The shared pieces of the VS Code host: the cache written by setup.sh, an isolated code-server
 * (own HOME, user data, extensions and TMPDIR, one process group), headless Chromium through
 * playwright-core, and the workbench URL that loads tests through the smoke-test driver.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleAliases } from '../../../scripts/bundleAliases.mjs';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The .vsix to install: `given` (`--vsix=FILE` or SATCHEL_VSIX), else the linux-x64 platform package,
 * built the way `npm run package` builds every target.
 */
export function linuxVsix(given: string | undefined): string {
  if (given) return resolve(given);
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts/package.mjs'), '--target=linux-x64'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('packaging linux-x64 failed');
  return join(repoRoot, 'dist/satchel-linux-x64.vsix');
}

/** A test module bundled to run inside the extension host (the suite, the day's driver): `vscode` is the host's own. */
export async function bundleForExtensionHost(entry: string, outfile: string, options: { readonly external?: readonly string[]; readonly sourcemap?: boolean } = {}): Promise<string> {
  await esbuild.build({
    entryPoints: [join(repoRoot, entry)],
    outfile: join(repoRoot, outfile),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['vscode', ...(options.external ?? [])],
    alias: bundleAliases,
    ...(options.sourcemap ? { sourcemap: 'inline' as const } : {}),
    logLevel: 'warning',
  });
  return join(repoRoot, outfile);
}

export interface HostTools {
  readonly codeServer: string;
  readonly playwrightCore: string;
  readonly chromium: string;
}

/** Runs the idempotent setup (fast when cached) and reads the paths it exported. */
export function ensureHost(): HostTools {
  const setup = spawnSync('bash', [join(repoRoot, 'test/integration/host/setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`VS Code host setup failed (exit ${setup.status})`);
  const envFile = setup.stdout.trim().split('\n').at(-1)!;
  const values: Record<string, string> = {};
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const match = /^export (\w+)="(.*)"$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return {
    codeServer: process.env.CODE_SERVER ?? values.CODE_SERVER!,
    playwrightCore: process.env.PLAYWRIGHT_CORE_DIR ?? values.PLAYWRIGHT_CORE_DIR!,
    chromium: process.env.CHROMIUM_PATH ?? values.CHROMIUM_PATH ?? '/usr/bin/chromium',
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface Workbench {
  readonly tmp: string;
  readonly port: number;
  readonly env: NodeJS.ProcessEnv;
  readonly log: () => string;
  /** The workbench's address; `inspectBrkPort` starts the extension host waiting for an inspector on that port (hostProfile.ts). */
  url(options: { folder: string; devPath?: string; testsPath?: string; inspectBrkPort?: number }): string;
  stop(): Promise<void>;
}

const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
};

/**
 * Starts an isolated code-server; `vsix` is installed into its extensions dir first. `extensionsDir`
 * and `cacheHome` (the XDG cache folder), fresh ones by default, let a start find the extensions an
 * earlier one installed and what it cached, as a user's next start does.
 */
export async function startCodeServer(tools: HostTools, options: { settings?: Record<string, unknown>; vsix?: string; env?: NodeJS.ProcessEnv; extensionsDir?: string; cacheHome?: string }): Promise<Workbench> {
  const tmp = mkdtempSync(join(tmpdir(), 'sch-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    HOME: tmp,
    XDG_CONFIG_HOME: join(tmp, 'config'),
    XDG_DATA_HOME: join(tmp, 'data'),
    XDG_CACHE_HOME: options.cacheHome ?? join(tmp, 'cache'),
    ...(tmp.length < 60 ? { TMPDIR: tmp } : {}),
  };
  // The runner's own Node must not leak into code-server's Node 24 (npm and strip-types flags).
  delete env.NODE_OPTIONS;
  const udd = join(tmp, 'udd');
  const exts = options.extensionsDir ?? join(tmp, 'exts');
  mkdirSync(join(udd, 'User'), { recursive: true });
  mkdirSync(exts, { recursive: true });
  writeFileSync(join(udd, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...options.settings }, null, 1));
  writeFileSync(join(tmp, 'config.yaml'), 'auth: none\n');
  const common = ['--user-data-dir', udd, '--extensions-dir', exts, '--config', join(tmp, 'config.yaml')];
  if (options.vsix) {
    const install = spawnSync(tools.codeServer, [...common, '--install-extension', resolve(options.vsix), '--force'], { env, encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`Installing ${options.vsix} failed:\n${install.stdout}\n${install.stderr}`);
    process.stdout.write(`[runner] ${install.stdout.trim().split('\n').at(-1)}\n`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    tools.codeServer,
    [
      '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', ...common,
      '--vscode-option', 'enable-smoke-test-driver',
    ],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  const deadline = Date.now() + 60_000;
  while (!output.includes('HTTP server listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`code-server did not start:\n${output.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const host = `127.0.0.1:${port}`;
  return {
    tmp,
    port,
    env,
    log: () => output,
    url({ folder, devPath, testsPath, inspectBrkPort }) {
      const remote = (p: string) => `vscode-remote://${host}${resolve(p)}`;
      const payload: [string, string][] = [];
      if (devPath) payload.push(['extensionDevelopmentPath', remote(devPath)]);
      if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
      if (inspectBrkPort) payload.push(['inspect-brk-extensions', String(inspectBrkPort)]);
      if (payload.length) payload.push(['skipWelcome', 'true']);
      let url = `http://${host}/?folder=${encodeURIComponent(resolve(folder))}`;
      if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return url;
    },
    async stop() {
      const signal = (name: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, name);
        } catch {
          // Already gone.
        }
      };
      signal('SIGTERM');
      // Processes of the group (the agent host when chat is on) still write into tmp while they exit.
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      signal('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      try {
        rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (error) {
        process.stderr.write(`[runner] could not remove ${tmp}: ${(error as Error).message}\n`);
      }
    },
  };
}

// playwright-core is loaded from the host cache (it is not a project dependency).
type Chromium = { launch(options: Record<string, unknown>): Promise<Browser> };
export interface Page {
  goto(url: string): Promise<unknown>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  screenshot(options: { path: string }): Promise<unknown>;
  exposeFunction(name: string, fn: (...args: any[]) => unknown): Promise<void>;
  on(event: string, fn: (...args: any[]) => void): void;
  mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void> };
  keyboard: { down(key: string): Promise<void>; up(key: string): Promise<void> };
  /** Evaluates a script in the page (a string: the suite has no DOM types). */
  evaluate<T>(expression: string): Promise<T>;
  locator(selector: string, options?: { hasText?: string }): Locator;
}
export interface Locator {
  first(): Locator;
  click(options?: { timeout?: number }): Promise<void>;
  boundingBox(options?: { timeout?: number }): Promise<{ x: number; y: number; width: number; height: number } | null>;
  evaluateAll<T>(fn: (elements: Element[]) => T): Promise<T>;
}
export interface Browser {
  newPage(options: Record<string, unknown>): Promise<Page>;
  close(): Promise<void>;
  on(event: string, fn: () => void): void;
}

export async function launchChromium(tools: HostTools): Promise<Browser> {
  const { chromium } = createRequire(import.meta.url)(tools.playwrightCore) as { chromium: Chromium };
  const home = mkdtempSync(join(tmpdir(), 'sch-chromium-'));
  const browser = await chromium.launch({
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') },
    executablePath: tools.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-breakpad'],
  });
  browser.on('disconnected', () => rmSync(home, { recursive: true, force: true }));
  return browser;
}
