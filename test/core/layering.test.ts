/** The dependency direction of DEVELOPERS.md, enforced: core ← server; client ← extension. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((match[1] ?? match[2])!);
  }
  return found;
}

function violations(folder: string, forbidden: (specifier: string, file: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of sources(join(root, 'src', folder))) {
    for (const specifier of imports(file)) {
      if (forbidden(specifier, file)) out.push(`${relative(root, file)} imports ${specifier}`);
    }
  }
  return out;
}

const resolvesInto = (file: string, specifier: string, folder: string): boolean =>
  specifier.startsWith('.') && relative(root, join(file, '..', specifier)).startsWith(`src/${folder}/`);

test('core imports no vscode, koa, ws or undici, and nothing from the outer layers', () => {
  const outer = ['server', 'client', 'extension'];
  assert.deepEqual(
    violations('core', (s, file) => /^(vscode|koa|@koa\/|ws$|undici)/.test(s) || outer.some((f) => resolvesInto(file, s, f))),
    [],
  );
});

test('server never imports vscode, the client or the extension', () => {
  assert.deepEqual(
    violations('server', (s, file) => s === 'vscode' || resolvesInto(file, s, 'client') || resolvesInto(file, s, 'extension')),
    [],
  );
});

test('client imports no vscode, no server, and from core only types and the event helpers', () => {
  const text = (file: string) => readFileSync(file, 'utf8');
  const bad = violations('client', (s, file) => {
    if (s === 'vscode' || resolvesInto(file, s, 'server') || resolvesInto(file, s, 'extension')) return true;
    if (s.endsWith('/core/events.ts')) return false;
    if (resolvesInto(file, s, 'core')) return !new RegExp(`import type [^;]*['"]${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`).test(text(file));
    return false;
  });
  assert.deepEqual(bad, []);
});
