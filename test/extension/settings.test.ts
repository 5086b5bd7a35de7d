import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../../src/extension/settings.ts';

const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'));
const properties: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;

function configuration(values: Record<string, unknown>) {
  return { get: <T>(key: string, fallback?: T) => (key in values ? (values[key] as T) : fallback) as T };
}

test('the defaults in code match the defaults declared in package.json', () => {
  const declared = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key.replace(/^satchel\./, ''), value.default]));
  const fromManifest = readSettings(configuration(declared), { SATCHEL_DATA_DIR: '/data' });
  const fromCode = readSettings(configuration({}), { SATCHEL_DATA_DIR: '/data' });
  assert.deepEqual(fromManifest, fromCode);
  assert.equal(fromCode.port, undefined, 'port 0 means the Pieces range');
  assert.equal(fromCode.connectorMode, 'quiet');
  assert.equal(fromCode.idleUnloadMs, 15 * 60_000);
});

test('settings are validated and translated in one place', () => {
  const settings = readSettings(
    configuration({ port: 40123, dataDirectory: ' /tmp/x ', 'connector.mode': 'loud', 'connector.minLength': -4, 'connector.reuseThreshold': 7, 'models.idleUnloadMinutes': 2 }),
    {},
  );
  assert.equal(settings.port, 40123);
  assert.equal(settings.dataDir, '/tmp/x');
  assert.equal(settings.connectorMode, 'quiet', 'an unknown mode falls back to the default');
  assert.equal(settings.connectorMinLength, 1);
  assert.equal(settings.connectorReuseThreshold, 1, 'clamped to at most 1');
  assert.equal(settings.idleUnloadMs, 120_000);
  assert.equal(readSettings(configuration({ port: 70000 }), {}).port, undefined);
});

test('completion settings: on by default with no trigger prefix; a prefix loses its white space', () => {
  const defaults = readSettings(configuration({}), {});
  assert.equal(defaults.completionEnabled, true);
  assert.equal(defaults.completionTriggerPrefix, '');
  const set = readSettings(configuration({ 'completion.enabled': false, 'completion.triggerPrefix': ' sat: ' }), {});
  assert.equal(set.completionEnabled, false);
  assert.equal(set.completionTriggerPrefix, 'sat:');
});

test('trash retention: 30 days by default, 0 keeps until emptied, clamped to whole days in range', () => {
  assert.equal(readSettings(configuration({}), {}).trashRetentionDays, 30);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 0 }), {}).trashRetentionDays, 0);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 7.4 }), {}).trashRetentionDays, 7);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': -3 }), {}).trashRetentionDays, 0);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 99_999 }), {}).trashRetentionDays, 3650);
});
