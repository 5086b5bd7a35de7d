/** The doors over the store's findings (storedDoors.ts): stored texts and openings of them answered by findingsNow, anything else scanned, a write between them noticed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoredDoorSecrets, type StoredSecrets } from '../../../src/core/secrets/storedDoors.ts';
import type { SecretTexts } from '../../../src/core/secrets/doorSecrets.ts';
import type { SecretFinding } from '../../../src/core/secrets/findings.ts';

const finding = (label: string, start = 0, end = 1): SecretFinding => ({ ruleId: 'r', category: 'SECRET', severity: 'HIGH', label, field: 'code', start, end, line: 1 });

/** Longer than what the doors hash to ask whether their findings are recorded (storedDoors.ts' HASHED_AT_ONCE). */
const LONG = 'y'.repeat(256 * 1024 + 1);

/**
 * A store holding one snippet's `texts`; its findings recorded for `recorded` (by default the texts
 * as they are when it is made, when current; none when pending).
 */
function service(stored: { texts: SecretTexts; current: boolean; head?: number; findings?: SecretFinding[]; recorded?: SecretTexts }, onNow?: () => void): StoredSecrets & { calls: string[] } {
  const calls: string[] = [];
  const recorded = stored.recorded ?? (stored.current ? { ...stored.texts } : undefined);
  return {
    calls,
    findingsNow: async () => {
      calls.push('now');
      onNow?.();
      return stored.findings ?? [finding('recorded')];
    },
    findingsFor: () => stored.findings ?? [finding('recorded')],
    isCurrent: () => stored.current,
    scanTexts: async () => {
      calls.push('scan');
      return [finding('scanned')];
    },
    recordedFor: (_id, texts) => {
      calls.push('hash');
      return recorded !== undefined && texts.code === recorded.code && (texts.name ?? '') === (recorded.name ?? '') && (texts.description ?? '') === (recorded.description ?? '');
    },
    openingOf: (_id, chars) => ({ texts: { ...stored.texts, code: stored.texts.code.slice(0, Math.min(chars, stored.head ?? chars)) }, chars: stored.texts.code.length }),
    syncsWithSecrets: (id) => id === 'kept',
  };
}

test('texts whose findings are recorded are answered by them; another text or a copy is scanned as it is', async () => {
  const stored = { texts: { code: 'x', name: 'n', description: undefined }, current: true };
  const s = service(stored);
  const doors = new StoredDoorSecrets(s);
  assert.equal((await doors.findingsIn({ code: 'x', name: 'n' }, 'a'))[0]!.label, 'recorded');
  assert.equal((await doors.findingsIn({ code: 'x…', name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.equal((await doors.findingsIn({ code: 'x', name: 'n' }))[0]!.label, 'scanned');
  assert.equal((await doors.findingsIn({ code: 'x', name: 'other' }, 'a'))[0]!.label, 'scanned');
  assert.deepEqual(s.calls, ['hash', 'hash', 'scan', 'scan', 'hash', 'scan']);
  assert.equal(doors.knownFindings({ code: 'x', name: 'n' }, 'a')?.[0]?.label, 'recorded');
  assert.equal(doors.knownFindings({ code: 'y', name: 'n' }, 'a'), undefined);
  assert.equal(doors.syncsWithSecrets('kept'), true);
});

test('a write while findingsNow runs (or findings not current after it) sends the door to a scan of its own texts', async () => {
  // Texts too long to hash first: their findings are asked of findingsNow.
  const stored = { texts: { code: LONG, name: 'n' } as SecretTexts, current: true };
  const s = service(stored, () => {
    stored.texts = { code: `${LONG}2`, name: 'n' };
  });
  const doors = new StoredDoorSecrets(s);
  assert.equal((await doors.findingsIn({ code: LONG, name: 'n' }, 'a'))[0]!.label, 'scanned');
  const pending = service({ texts: { code: LONG, name: 'n' }, current: false });
  assert.equal((await new StoredDoorSecrets(pending).findingsIn({ code: LONG, name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.equal(new StoredDoorSecrets(pending).knownFindings({ code: LONG, name: 'n' }, 'a'), undefined);
  // Short texts not yet scanned: the same.
  const unscanned = service({ texts: { code: 'x', name: 'n' }, current: false });
  assert.equal((await new StoredDoorSecrets(unscanned).findingsIn({ code: 'x', name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.deepEqual(unscanned.calls, ['hash', 'now', 'scan']);
});

test('an opening of the stored code is answered with the recorded findings cut at it, without reading the whole text', async () => {
  const code = `${'a'.repeat(20)}KEY${'b'.repeat(20)}${LONG}`;
  const recorded = [finding('across the cut', 18, 26), finding('past the cut', 30, 35), { ...finding('in the name', 0, 1), field: 'name' as const }];
  const s = service({ texts: { code, name: 'n' }, current: true, head: 25, findings: recorded });
  const doors = new StoredDoorSecrets(s);
  const found = await doors.findingsIn({ code: code.slice(0, 22), name: 'n' }, 'a');
  assert.deepEqual(
    found.map((f) => [f.label, f.start, f.end]),
    [
      ['across the cut', 18, 22],
      ['in the name', 0, 1],
    ],
  );
  // Not a prefix of the stored code, or longer than the head holds and not the whole: scanned as it is.
  assert.equal((await doors.findingsIn({ code: `X${code.slice(1, 22)}`, name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.equal((await doors.findingsIn({ code: code.slice(0, 30), name: 'n' }, 'a'))[0]!.label, 'scanned');
  // Each short text hashed first (not recorded), then told from the stored opening.
  assert.deepEqual(s.calls, ['hash', 'now', 'hash', 'scan', 'hash', 'scan']);
  // The whole text, longer than the head and than what is hashed first: told by the hash of the
  // texts the findings were recorded for, once, after findingsNow (comparing it with the stored
  // text read that text twice).
  assert.equal((await doors.findingsIn({ code, name: 'n' }, 'a'))[0]!.label, 'across the cut');
  assert.deepEqual(s.calls.slice(6), ['now', 'hash']);
  // As long as the stored text and the same as far as the head goes, but not the same: scanned.
  assert.equal((await doors.findingsIn({ code: `${code.slice(0, -1)}X`, name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.deepEqual(s.calls.slice(8), ['now', 'hash', 'scan']);
  assert.equal(doors.knownFindings({ code, name: 'n' }, 'a')?.[0]?.label, 'across the cut');
  assert.equal(doors.knownFindings({ code: `${code.slice(0, -1)}X`, name: 'n' }, 'a'), undefined);
  assert.equal(doors.knownFindings({ code: code.slice(0, 22), name: 'n' }, 'a'), undefined);
});

test('texts whose findings are recorded are answered by them without reading the snippet, even when it was written since', async () => {
  const recorded = { code: 'const key = 1;', name: 'n' };
  // Written since (pending), its texts now others: the door holding the recorded texts gets their findings.
  const s = service({ texts: { code: 'const key = 2;', name: 'n' }, current: false, recorded });
  s.openingOf = () => assert.fail('the snippet is not read');
  const doors = new StoredDoorSecrets(s);
  assert.equal((await doors.findingsIn(recorded, 'a'))[0]!.label, 'recorded');
  assert.deepEqual(s.calls, ['hash']);
  // The same texts under another description: not recorded for them, so scanned.
  const other = service({ texts: recorded, current: true });
  assert.equal((await new StoredDoorSecrets(other).findingsIn({ ...recorded, description: 'd' }, 'a'))[0]!.label, 'scanned');
  assert.deepEqual(other.calls, ['hash', 'scan']);
});

test('an opening whose snippet is written while findingsNow runs is scanned as it is', async () => {
  const stored = { texts: { code: 'abcdef', name: 'n' } as SecretTexts, current: true };
  const s = service(stored, () => {
    stored.texts = { code: 'xbcdef', name: 'n' };
  });
  assert.equal((await new StoredDoorSecrets(s).findingsIn({ code: 'abc', name: 'n' }, 'a'))[0]!.label, 'scanned');
  assert.deepEqual(s.calls, ['hash', 'now', 'scan']);
});
