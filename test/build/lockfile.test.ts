/**
 * package-lock.json stays in sync with package.json, so `npm ci` (the README's and CI's install)
 * works on a clean clone. npm ci refuses a lock whose root entry differs from package.json or that
 * lacks an entry for any dependency a locked package declares — optional ones included, which is
 * how a node-llama-cpp release with unpublished platform packages broke it. Offline: reads files only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { resolveLocked } from '../../scripts/lockfile.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

interface LockedPackage {
  version?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const packages = lock.packages as Record<string, LockedPackage>;

test('the lock root matches package.json (name, version, dependencies, bin, engines)', () => {
  const locked = packages['']!;
  assert.equal(lock.lockfileVersion, 3);
  assert.equal(lock.name, manifest.name);
  assert.equal(lock.version, manifest.version);
  const rootEntry = locked as Record<string, unknown>;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'engines'] as const) {
    assert.deepEqual(rootEntry[field] ?? {}, manifest[field] ?? {}, `lock root ${field} differs from package.json: run npm install and commit package-lock.json`);
  }
  const bin = Object.fromEntries(Object.entries((manifest.bin ?? {}) as Record<string, string>).map(([k, v]) => [k, v.replace(/^\.\//, '')]));
  assert.deepEqual(rootEntry.bin ?? {}, bin, 'lock root bin differs from package.json');
});

test('every dependency a locked package declares has a locked entry (npm ci: "Missing … from lock file")', () => {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const [name, peerRange] of Object.entries(entry.peerDependencies ?? {})) {
      if (!entry.peerDependenciesMeta?.[name]?.optional) wanted[name] ??= peerRange;
    }
    for (const name of Object.keys(wanted)) {
      if (!resolveLocked(packages, path, name)) missing.push(`${name} (wanted by ${path || 'package.json'})`);
    }
  }
  assert.deepEqual(missing, []);
});

test('exactly pinned dependencies are locked at that version', () => {
  for (const [name, range] of Object.entries({ ...manifest.dependencies } as Record<string, string>)) {
    if (!/^\d+\.\d+\.\d+$/.test(range)) continue;
    assert.equal(packages[`node_modules/${name}`]?.version, range, name);
  }
});

test('node-llama-cpp has a locked binary package for every platform Satchel ships', () => {
  const llama = packages['node_modules/node-llama-cpp']!;
  for (const platform of ['linux-x64', 'linux-arm64', 'mac-x64', 'mac-arm64-metal', 'win-x64']) {
    const entry = packages[`node_modules/@node-llama-cpp/${platform}`];
    assert.ok(entry, `@node-llama-cpp/${platform} is not in the lock`);
    assert.equal(entry.version, llama.version, `@node-llama-cpp/${platform} is not at node-llama-cpp's version`);
  }
});
