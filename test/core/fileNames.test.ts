import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeFileName } from '../../src/core/fileNames.ts';

test("Windows' reserved device names are escaped, with any extension and in any case", () => {
  for (const name of ['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'NUL.txt', 'con.tar.gz', 'Aux .md', 'COM¹']) {
    assert.equal(safeFileName(name, 'asset'), `_${name}`, name);
  }
  // Only the whole first part is reserved: these are ordinary names.
  for (const name of ['CONSOLE', 'console.log', 'COM10', 'LPT0', 'nullish', 'my con', 'a.con']) {
    assert.equal(safeFileName(name, 'asset'), name, name);
  }
});

test('trailing dots and spaces go (Windows drops them), and a reserved name under them is still caught', () => {
  assert.equal(safeFileName('notes. . ', 'asset'), 'notes');
  assert.equal(safeFileName('CON.', 'asset'), '_CON');
  assert.equal(safeFileName('nul ...', 'asset'), '_nul');
  assert.equal(safeFileName('...', 'asset'), 'asset', 'nothing left: the fallback');
});

test('characters some system refuses become spaces; the name is trimmed, kept to 80 characters, or falls back', () => {
  assert.equal(safeFileName('a/b\\c:d*e?f"g<h>i|j', 'asset'), 'a b c d e f g h i j');
  assert.equal(safeFileName('line one\r\nline two', 'asset'), 'line one line two');
  assert.equal(safeFileName('  fetch retry  ', 'asset'), 'fetch retry');
  assert.equal(safeFileName('x'.repeat(200), 'asset').length, 80);
  assert.equal(safeFileName('', 'snippets'), 'snippets');
  assert.equal(safeFileName('///', 'snippets'), 'snippets');
});
