/** The doors over the store's findings (storedDoors.ts): stored texts answered by findingsNow, anything else scanned, a write between them noticed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoredDoorSecrets, type StoredSecrets } from '../../../src/core/secrets/storedDoors.ts';
import type { SecretTexts } from '../../../src/core/secrets/doorSecrets.ts';
import type { SecretFinding } from '../../../src/core/secrets/findings.ts';

const finding = (label: string): SecretFinding => ({ ruleId: 'r', category: 'SECRET', severity: 'HIGH', label, field: 'code', start: 0, end: 1, line: 1 });

function service(stored: { texts: SecretTexts; current: boolean }, onNow?: () => void): StoredSecrets & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    findingsNow: async () => {
      calls.push('now');
      onNow?.();
      return [finding('recorded')];
    },
    findingsFor: () => [finding('recorded')],
    isCurrent: () => stored.current,
    scanTexts: async () => {
      calls.push('scan');
      return [finding('scanned')];
    },
    textsOf: () => stored.texts,
    syncsWithSecrets: (id) => id === 'kept',
  };
}

test('the stored texts are answered by findingsNow; an opening or a copy is scanned as it is', async () => {
  const stored = { texts: { code: 'x', name: 'n', description: undefined }, current: true };
  const s = service(stored);
  const doors = new StoredDoorSecrets(s);
  assert.equal((await doors.findingsIn({ code: 'x', name: 'n' }, 'a'))[0]!.label, 'recorded');
  assert.equal((await doors.findingsIn({ code: 'x…', name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.equal((await doors.findingsIn({ code: 'x', name: 'n' }))[0]!.label, 'scanned');
  assert.deepEqual(s.calls, ['now', 'scan', 'scan']);
  assert.equal(doors.knownFindings({ code: 'x', name: 'n' }, 'a')?.[0]?.label, 'recorded');
  assert.equal(doors.knownFindings({ code: 'y', name: 'n' }, 'a'), undefined);
  assert.equal(doors.syncsWithSecrets('kept'), true);
});

test('a write while findingsNow runs (or findings not current after it) sends the door to a scan of its own texts', async () => {
  const stored = { texts: { code: 'x', name: 'n' } as SecretTexts, current: true };
  const s = service(stored, () => {
    stored.texts = { code: 'x2', name: 'n' };
  });
  const doors = new StoredDoorSecrets(s);
  assert.equal((await doors.findingsIn({ code: 'x', name: 'n' }, 'a'))[0]!.label, 'scanned');
  const pending = service({ texts: { code: 'x', name: 'n' }, current: false });
  assert.equal((await new StoredDoorSecrets(pending).findingsIn({ code: 'x', name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.equal(new StoredDoorSecrets(pending).knownFindings({ code: 'x', name: 'n' }, 'a'), undefined);
});
