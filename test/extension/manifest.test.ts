/**
 * The package.json ↔ code contract: every contributed command has a handler in the commands map
 * and every handler is contributed; menus, keybindings and welcome links name real commands.
 * (The integration suite checks the same against a running VS Code's registrations.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);

function handlerIds(): string[] {
  const dir = join(root, 'src/extension/commands');
  const ids: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const match of source.matchAll(/^\s+'(satchel\.[\w.]+)':/gm)) ids.push(match[1]!);
  }
  return ids;
}

test('every contributed command has exactly one handler, and every handler is contributed', () => {
  const handlers = handlerIds();
  assert.equal(new Set(handlers).size, handlers.length, 'a command id is handled twice');
  assert.deepEqual([...handlers].sort(), [...contributed].sort());
});

test('menus, keybindings and welcome links only name contributed commands', () => {
  const known = new Set(contributed);
  const menus = Object.values(manifest.contributes.menus as Record<string, { command: string }[]>).flat();
  for (const entry of menus) assert.ok(known.has(entry.command), `menu entry ${entry.command}`);
  for (const binding of manifest.contributes.keybindings) assert.ok(known.has(binding.command), `keybinding ${binding.command}`);
  for (const welcome of manifest.contributes.viewsWelcome) {
    for (const match of String(welcome.contents).matchAll(/\(command:([\w.]+)\)/g)) assert.ok(known.has(match[1]!), `welcome link ${match[1]}`);
  }
});

test('item actions that need a tree node are hidden from the command palette', () => {
  const hidden = new Set(
    manifest.contributes.menus.commandPalette.filter((e: { when?: string }) => e.when === 'false').map((e: { command: string }) => e.command),
  );
  for (const id of contributed.filter((c) => /^satchel\.(asset|suggestion|conversation|model|agentChange)\./.test(c))) {
    assert.ok(hidden.has(id), `${id} should not be in the palette`);
  }
});

test('every view has a welcome state, and views and settings use the satchel namespace', () => {
  const views: string[] = manifest.contributes.views.satchel.map((v: { id: string }) => v.id);
  assert.deepEqual(views, ['satchel.assets', 'satchel.conversations', 'satchel.models', 'satchel.conflicts']);
  const welcomed = new Set(manifest.contributes.viewsWelcome.map((w: { view: string }) => w.view));
  for (const view of views) assert.ok(welcomed.has(view), `${view} has no viewsWelcome`);
  for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.match(key, /^satchel\./);
  assert.deepEqual(manifest.activationEvents, ['onStartupFinished']);
});

test('the extension prefers the user\'s own machine: in SSH, WSL and container windows the library stays local', () => {
  // ["ui", "workspace"]: runs beside the UI when installed there, on the remote only when it cannot
  // (Codespaces in a browser, code-server). Without it VS Code deduces ["workspace"] from `main`.
  assert.deepEqual(manifest.extensionKind, ['ui', 'workspace']);
  assert.equal(manifest.browser, undefined, 'no web-worker entry: a browser window runs it on the remote host');
});
