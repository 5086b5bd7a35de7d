import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readSettings, SERVER_KEYS } from '../../src/extension/settings.ts';

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

test('the remote-host warning is on by default, and a sync remote is read trimmed (blank is none)', () => {
  assert.equal(readSettings(configuration({}), {}).warnOnRemoteHost, true);
  assert.equal(readSettings(configuration({ 'remote.warnOnRemoteHost': false }), {}).warnOnRemoteHost, false);
  assert.equal(readSettings(configuration({}), {}).syncRemote, undefined);
  assert.equal(readSettings(configuration({ 'sync.remote': '  ' }), {}).syncRemote, undefined);
  assert.equal(readSettings(configuration({ 'sync.remote': ' /srv/snippets.git ' }), {}).syncRemote, '/srv/snippets.git');
});

test('allowed hosts: a list of non-blank names, trimmed; changing it restarts the server', () => {
  assert.deepEqual(readSettings(configuration({}), {}).allowedHosts, []);
  assert.deepEqual(readSettings(configuration({ 'server.allowedHosts': [' host.docker.internal ', '', 7, '  '] }), {}).allowedHosts, ['host.docker.internal']);
  assert.deepEqual(readSettings(configuration({ 'server.allowedHosts': 'host.docker.internal' }), {}).allowedHosts, []);
  assert.ok(SERVER_KEYS.includes('satchel.server.allowedHosts'));
});

test("the review of agents' writes is the user's only when they set it: left at its default, the host's own choice stands", () => {
  const inspecting = (set: Record<string, unknown>) => ({
    get: <T>(key: string, fallback?: T) => (key in set ? (set[key] as T) : fallback) as T,
    inspect: <T>(key: string) => ({ key, defaultValue: false as T, ...(key in set ? { globalValue: set[key] as T } : {}) }),
  });
  assert.equal(readSettings(inspecting({}), {}).agentReviewWrites, undefined);
  assert.equal(readSettings(inspecting({ 'agents.reviewWrites': true }), {}).agentReviewWrites, true);
  assert.equal(readSettings(inspecting({ 'agents.reviewWrites': false }), {}).agentReviewWrites, false, 'set to off is a choice too');
});

test('trash retention: 30 days by default, 0 keeps until emptied, clamped to whole days in range', () => {
  assert.equal(readSettings(configuration({}), {}).trashRetentionDays, 30);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 0 }), {}).trashRetentionDays, 0);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 7.4 }), {}).trashRetentionDays, 7);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': -3 }), {}).trashRetentionDays, 0);
  assert.equal(readSettings(configuration({ 'trash.retentionDays': 99_999 }), {}).trashRetentionDays, 3650);
});
