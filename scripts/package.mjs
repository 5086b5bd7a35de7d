// Builds one platform-specific .vsix per VS Code target (`vsce package --target`), each holding the
// bundles and only that platform's prebuilt node-llama-cpp binaries, and prints each file's size.
//
//   node scripts/package.mjs [--target=linux-x64,darwin-arm64] [--skip-build]
//
// Each target gets a stage directory (dist/stage/<target>) with the production bundles, icons, docs,
// a package.json whose only dependency is node-llama-cpp (everything else is bundled by esbuild),
// and node-llama-cpp's dependency closure copied from node_modules. vsce then lists that closure with
// `npm list` and .vscodeignore drops what the runtime never loads. A target's binary package comes
// from node_modules when npm installed it (the host's platform), otherwise from the npm registry
// (`npm pack`, checked against package-lock.json's integrity and cached under ~/.cache/satchel).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLocked } from './lockfile.mjs';
import { onDemandPackages } from './onDemandPackages.mjs';
import { onDemandSources } from './onDemandSources.mjs';
import { thirdPartyNotices } from './notices.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** VS Code target → node-llama-cpp's CPU build for it (macOS arm64 only has the Metal build). */
export const TARGETS = {
  'linux-x64': '@node-llama-cpp/linux-x64',
  'linux-arm64': '@node-llama-cpp/linux-arm64',
  'darwin-x64': '@node-llama-cpp/mac-x64',
  'darwin-arm64': '@node-llama-cpp/mac-arm64-metal',
  'win32-x64': '@node-llama-cpp/win-x64',
};

export function vsixPath(target) {
  return path.join(root, 'dist', `satchel-${target}.vsix`);
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const locked = lock.packages;

/** node-llama-cpp and everything it depends on (its optional platform packages excluded). */
function runtimeClosure() {
  const seen = new Set();
  const queue = ['node_modules/node-llama-cpp'];
  while (queue.length) {
    const at = queue.pop();
    if (seen.has(at)) continue;
    seen.add(at);
    for (const name of Object.keys(locked[at].dependencies ?? {})) {
      const found = resolveLocked(locked, at, name);
      if (!found) throw new Error(`${name} (needed by ${at}) is not in package-lock.json`);
      queue.push(found);
    }
  }
  return [...seen].sort();
}

/** Copies one package directory without its nested node_modules (those are closure entries of their own). */
function copyPackage(from, to) {
  cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (source) => path.relative(from, source).split(path.sep)[0] !== 'node_modules',
  });
}

function sri(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** The unpacked binary package for `name`: node_modules when installed, else a verified registry tarball. */
function binaryPackage(name) {
  const entry = locked[`node_modules/${name}`];
  if (!entry) throw new Error(`${name} is not in package-lock.json; run npm install`);
  const installed = path.join(root, 'node_modules', name);
  if (existsSync(path.join(installed, 'package.json')) && JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')).version === entry.version) {
    return installed;
  }
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'satchel', 'binaries');
  const unpacked = path.join(cache, `${name.replace('/', '+')}@${entry.version}`);
  if (existsSync(path.join(unpacked, '.complete'))) return unpacked;
  mkdirSync(cache, { recursive: true });
  const tarball = path.join(cache, `${name.slice(1).replace('/', '-')}-${entry.version}.tgz`);
  if (!existsSync(tarball) || sri(tarball) !== entry.integrity) {
    console.log(`fetching ${name}@${entry.version} from the npm registry`);
    // npm is npm.cmd on Windows, which only runs through a shell (so the path is quoted there).
    const destination = process.platform === 'win32' ? `"${cache}"` : cache;
    execFileSync('npm', ['pack', `${name}@${entry.version}`, '--pack-destination', destination, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
  }
  if (sri(tarball) !== entry.integrity) throw new Error(`${tarball} does not match package-lock.json's integrity for ${name}`);
  const scratch = `${unpacked}.tmp`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', scratch, '--strip-components=1']);
  writeFileSync(path.join(scratch, '.complete'), '');
  rmSync(unpacked, { recursive: true, force: true });
  renameSync(scratch, unpacked);
  return unpacked;
}

/** The manifest users get: the only run-time dependency left after bundling is node-llama-cpp. */
function shippedManifest() {
  const { devDependencies, scripts, allowScripts, dependencies, ...rest } = manifest;
  return { ...rest, dependencies: { 'node-llama-cpp': dependencies['node-llama-cpp'] } };
}

function stage(target, closure) {
  const dir = path.join(root, 'dist', 'stage', target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  const bundles = ['extension.cjs', 'extensionMain.cjs', 'zod.cjs', ...Object.values(onDemandPackages), ...Object.values(onDemandSources), 'cli.cjs', 'classifyWorker.cjs', 'secretsWorker.cjs', 'jsonWorker.cjs', 'importHost.cjs', 'prepareWorker.cjs', 'llamaHost.cjs', 'encoderHost.cjs'];
  for (const file of bundles) cpSync(path.join(root, 'dist', file), path.join(dir, 'dist', file));
  // The built-in sentence encoder: its weights and the WebAssembly backend beside encoderHost.cjs, once
  // (TensorFlow.js itself is bundled into encoderHost.cjs; no @energetic-ai package is in node_modules).
  for (const file of ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm', 'tokenModel.json']) cpSync(path.join(root, 'dist', file), path.join(dir, 'dist', file));
  for (const folder of ['guesslang', 'use-lite']) cpSync(path.join(root, 'dist', folder), path.join(dir, 'dist', folder), { recursive: true });
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'media/satchel.svg', 'media/icon.png']) {
    cpSync(path.join(root, file), path.join(dir, file));
  }
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(shippedManifest(), null, 2)}\n`);
  for (const at of closure) copyPackage(path.join(root, at), path.join(dir, at));
  const binaries = TARGETS[target];
  copyPackage(binaryPackage(binaries), path.join(dir, 'node_modules', binaries));
  rmSync(path.join(dir, 'node_modules', binaries, '.complete'), { force: true });
  // What the bundles hold (recorded by the build) and what ships whole: the closure and the binaries.
  const bundled = JSON.parse(readFileSync(path.join(root, 'out', 'bundled-packages.json'), 'utf8'));
  const shipped = [...bundled, ...closure].map((at) => path.join(root, at));
  writeFileSync(path.join(dir, 'ThirdPartyNotices.txt'), thirdPartyNotices([...shipped, path.join(dir, 'node_modules', binaries)]));
  return dir;
}

function vsce(args, cwd) {
  const bin = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    throw new Error(`vsce ${args.join(' ')} failed (exit ${result.status})`);
  }
}

function main() {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
  const targets = args.get('target')?.split(',') ?? Object.keys(TARGETS);
  for (const target of targets) if (!TARGETS[target]) throw new Error(`unknown target ${target}; known: ${Object.keys(TARGETS).join(', ')}`);
  if (!args.has('skip-build')) execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
  const closure = runtimeClosure();
  for (const target of targets) {
    const dir = stage(target, closure);
    const out = vsixPath(target);
    rmSync(out, { force: true });
    try {
      vsce(['package', '--target', target, '--out', out], dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(`${path.relative(root, out)}: ${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB`);
  }
  if (readdirSync(path.join(root, 'dist', 'stage')).length === 0) rmSync(path.join(root, 'dist', 'stage'), { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
