/** The sync settings: read and bounded in one place, with the defaults package.json declares. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readSyncSettings } from '../../src/extension/sync/syncSettings.ts';
import { DEFAULT_MAX_DELETE_PERCENT } from '../../src/core/sync/massDelete.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const declared = manifest.contributes.configuration.properties;

function configuration(values: Record<string, unknown>) {
  return { get: <T>(key: string, fallback?: T): T => (key in values ? (values[key] as T) : (fallback as T)) };
}

test('no remote by default; every 10 minutes and on focus once one is set; 0 minutes syncs only when asked', () => {
  assert.deepEqual(readSyncSettings(configuration({})), { remote: undefined, intervalMs: 600_000, onFocus: true, maxDeletePercent: 50 });
  assert.equal(declared['satchel.sync.remote'].default, '');
  assert.equal(declared['satchel.sync.intervalMinutes'].default, 10);
  assert.equal(declared['satchel.sync.onFocus'].default, true);
  assert.deepEqual(readSyncSettings(configuration({ 'satchel.sync.remote': '  /srv/snippets.git ', 'satchel.sync.intervalMinutes': 0, 'satchel.sync.onFocus': false })), {
    remote: '/srv/snippets.git',
    intervalMs: 0,
    onFocus: false,
    maxDeletePercent: 50,
  });
  assert.equal(readSyncSettings(configuration({ 'satchel.sync.intervalMinutes': 0.2 })).intervalMs, 60_000, 'at least a minute apart');
  assert.equal(readSyncSettings(configuration({ 'satchel.sync.remote': '   ' })).remote, undefined);
});

test('the share a sync deletes without asking: declared 0-100 with the default core uses; read within those bounds', () => {
  const declaredPercent = declared['satchel.sync.maxDeletePercent'];
  assert.deepEqual([declaredPercent.type, declaredPercent.default, declaredPercent.minimum, declaredPercent.maximum], ['number', DEFAULT_MAX_DELETE_PERCENT, 0, 100]);
  const read = (value: unknown): number => readSyncSettings(configuration({ 'satchel.sync.maxDeletePercent': value })).maxDeletePercent;
  assert.deepEqual([read(20), read(0), read(100), read(150), read(-3), read('many'), read(null)], [20, 0, 100, 100, 0, 50, 50]);
});

test('the sync settings are the machine\'s: a workspace\'s .vscode/settings.json cannot point sync (the whole library) at a project\'s repository, nor loosen its delete guard', () => {
  const sync = Object.entries(declared).filter(([key]) => key.startsWith('satchel.sync.'));
  assert.deepEqual(sync.map(([key]) => key).sort(), ['satchel.sync.intervalMinutes', 'satchel.sync.maxDeletePercent', 'satchel.sync.onFocus', 'satchel.sync.remote']);
  for (const [key, setting] of sync) assert.ok(['machine', 'application'].includes((setting as { scope?: string }).scope ?? 'window'), `${key} is not machine- or application-scoped`);
});
