/**
 * In a remote window (SSH, WSL, a dev container) Satchel runs on the user's own machine while the
 * workspace lives on the other one: node:fs on a workspace path reads or writes the wrong disk. So
 * the extension reaches workspace content only through VS Code (TextDocument, workspace.fs):
 *
 *   - nothing the extension runs imports node:fs, directly or through the modules of core, wire
 *     and client it imports, except the modules listed below, which touch only Satchel's own data
 *     and the agents' configuration files in the user's home;
 *   - a Uri becomes a local path (`fsPath`) only in workspaceFiles.ts, which refuses a non-file Uri.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const extensionDir = join(root, 'src/extension');

/** Modules the extension may run that use node:fs, each on Satchel's own data only (why, beside it). */
const OWN_DATA: Record<string, string> = {
  'src/core/backups/backupFiles.ts': 'the backups folder of the data directory (settings.ts reads its bounds)',
  'src/core/store/privateFiles.ts': 'files of the data directory made private to the user (run by backupFiles.ts)',
  // Not workspace content: each agent reads its file on the machine Satchel runs on (the UI side in a remote window).
  'src/core/connect/configFiles.ts': "the agents' own configuration files in the user's home (Connect an Agent)",
  // Not a file at all: the kernel's scheduler statistics of the extension host's own thread, read around activation.
  'src/extension/threadClock.ts': "/proc/thread-self/schedstat, the extension host thread's wait for a core",
};

const NODE_FS = /^(node:)?fs(\/promises)?$/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The run-time imports of a module's text (type-only imports are erased and run nothing). */
function runtimeImports(text: string): string[] {
  const out: string[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(statement)) {
    const bare = match[5] ?? match[6];
    if (bare !== undefined) {
      out.push(bare);
      continue;
    }
    if (match[2] !== undefined) continue;
    const braces = /^\{([^}]*)\}$/.exec((match[3] ?? '').trim());
    const names = braces?.[1]?.split(',').map((n) => n.trim()).filter(Boolean);
    if (names && names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    out.push(match[4]!);
  }
  return out;
}

/** Every module of src/ the extension's modules run, with the one that first imported each. */
function reachable(): Map<string, string> {
  const seen = new Map<string, string>();
  const queue = sources(extensionDir).map((file) => {
    seen.set(file, '(extension)');
    return file;
  });
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = join(file, '..', specifier);
      if (seen.has(target) || !existsSync(target)) continue;
      seen.set(target, file);
      queue.push(target);
    }
  }
  return seen;
}

test('the extension reads and writes workspace files only through VS Code, never node:fs', () => {
  const offenders: string[] = [];
  for (const [file, importer] of reachable()) {
    const rel = relative(root, file);
    if (rel in OWN_DATA) continue;
    if (runtimeImports(readFileSync(file, 'utf8')).some((specifier) => NODE_FS.test(specifier))) {
      offenders.push(importer === '(extension)' ? rel : `${rel} (run by ${relative(root, importer)})`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('a Uri becomes a local path only in workspaceFiles.ts', () => {
  const uses = sources(extensionDir)
    .filter((file) => /\.fsPath\b/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  assert.deepEqual(uses, ['src/extension/workspaceFiles.ts']);
});

test('the import reader sees run-time imports and skips type-only ones (the rule is not vacuous)', () => {
  const text = [
    "import { writeFile } from 'node:fs/promises';",
    "import type { Stats } from 'node:fs';",
    "import { type Dirent } from 'fs';",
    "export { readFile } from 'fs/promises';",
    "import './side-effect.ts';",
    "const later = await import('node:fs');",
  ].join('\n');
  assert.deepEqual(runtimeImports(text), ['node:fs/promises', 'fs/promises', './side-effect.ts', 'node:fs']);
  assert.ok(runtimeImports(text).filter((s) => NODE_FS.test(s)).length === 3);
});
