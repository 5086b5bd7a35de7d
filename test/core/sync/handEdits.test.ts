/** What a hand edit on the git host can put in a record, read as the other doors would take it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAsset, vaultTime, type VaultFile } from '../../../src/core/sync/vaultFormat.ts';
import { rfc3339 } from '../../../src/core/time.ts';

const NOW = '2026-11-28T00:00:00.000Z';

function record(meta: string) {
  const files: VaultFile[] = [
    { name: 'code.py', data: Buffer.from('print(1)\n') },
    { name: 'snippet.md', data: Buffer.from(`---\n${meta}\n---\n`) },
  ];
  return parseAsset('0190a1b2-0000-7000-8000-000000000001', files, () => NOW);
}

test('a blank name is no name, as the create door takes it: the id stands in (the edit door refuses a blank name)', () => {
  assert.equal(record('name: "   "').name, '0190a1b2-0000-7000-8000-000000000001');
  assert.equal(record('name: "\\t"').name, '0190a1b2-0000-7000-8000-000000000001');
  assert.equal(record('name: " padded "').name, ' padded ');
});

test('times are RFC 3339 or no time: what Date.parse alone also took falls back', () => {
  for (const bad of ['March 7', '1', '2020', '2020-02-31T00:00:00Z', '2021-13-01T00:00:00Z', '2020-01-01', 'yesterday', '2020-01-01T25:00:00Z']) {
    assert.equal(rfc3339(bad), undefined, bad);
  }
  for (const good of ['2020-01-01T00:00:00Z', '2020-01-01T00:00:00.123Z', '2020-02-29T23:59:59+05:30', '2020-03-01T00:30:00-05:00', '2021-01-01T00:00:00.000000001Z']) {
    assert.equal(rfc3339(good), good, good);
  }
  const read = record('created: March 7\nupdated: 2020-02-31T00:00:00Z');
  assert.equal(read.created, NOW);
  assert.equal(read.updated, NOW);
  assert.equal(record('created: 2020-01-01T00:00:00Z').updated, '2020-01-01T00:00:00Z');
});

test('a number is milliseconds since the epoch; one past what a Date holds is no time, not a crash of the whole read', () => {
  assert.equal(vaultTime(0), '1970-01-01T00:00:00.000Z');
  assert.equal(vaultTime(1e20), undefined);
  assert.equal(record('created: 100000000000000000000').created, NOW);
});
