import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idOfSegment, idSegment } from '../../../src/core/sync/vaultFormat.ts';
import { reservedOnWindows } from '../../../src/core/fileNames.ts';

test('a vault folder is never a name Windows refuses, and reads back as the id it was made from', () => {
  const ids = ['0198c7d2-4a1e-7b3c-9d2e-5f6a7b8c9d0e', 'CON', 'nul', 'Aux.json', 'com1', 'LPT9.txt', 'prn', 'abc.', 'a b/c', '-x', 'ok.id'];
  for (const id of ids) {
    const segment = idSegment(id);
    assert.equal(idOfSegment(segment), id, id);
    assert.equal(reservedOnWindows(segment), false, `${id} → ${segment}`);
    assert.ok(!segment.endsWith('.') && !segment.endsWith(' '), `${id} → ${segment}`);
  }
  assert.equal(idSegment('0198c7d2-4a1e-7b3c-9d2e-5f6a7b8c9d0e'), '0198c7d2-4a1e-7b3c-9d2e-5f6a7b8c9d0e');
  assert.equal(idSegment('CON'), '%43ON');
});
