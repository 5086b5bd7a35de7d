/** The sync settings: read and bounded in one place, with the defaults package.json declares. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readSyncSettings } from '../../src/extension/sync/syncSettings.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const declared = manifest.contributes.configuration.properties;

function configuration(values: Record<string, unknown>) {
  return { get: <T>(key: string, fallback?: T): T => (key in values ? (values[key] as T) : (fallback as T)) };
}

test('no remote by default; every 10 minutes and on focus once one is set; 0 minutes syncs only when asked', () => {
  assert.deepEqual(readSyncSettings(configuration({})), { remote: undefined, intervalMs: 600_000, onFocus: true });
  assert.equal(declared['satchel.sync.remote'].default, '');
  assert.equal(declared['satchel.sync.intervalMinutes'].default, 10);
  assert.equal(declared['satchel.sync.onFocus'].default, true);
  assert.deepEqual(readSyncSettings(configuration({ 'satchel.sync.remote': '  /srv/snippets.git ', 'satchel.sync.intervalMinutes': 0, 'satchel.sync.onFocus': false })), {
    remote: '/srv/snippets.git',
    intervalMs: 0,
    onFocus: false,
  });
  assert.equal(readSyncSettings(configuration({ 'satchel.sync.intervalMinutes': 0.2 })).intervalMs, 60_000, 'at least a minute apart');
  assert.equal(readSyncSettings(configuration({ 'satchel.sync.remote': '   ' })).remote, undefined);
});
