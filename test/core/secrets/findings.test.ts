import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeholderFor, redactText } from '../../../src/core/secrets/findings.ts';

const label = 'AWS secret access key';

test('each value is replaced by its named placeholder', () => {
  const text = 'key = "AKIAABCDEFGHIJKLMNOP"\nsecret = "s3cr3t"';
  const start = text.indexOf('AKIA');
  const second = text.indexOf('s3cr3t');
  const out = redactText(text, [
    { start: second, end: second + 6, label: 'password' },
    { start, end: start + 20, label },
  ]);
  assert.equal(out, `key = "${placeholderFor({ label })}"\nsecret = "«secret: password»"`);
});

test('overlapping findings hide the whole union, once', () => {
  const text = 'abcdefghij';
  const out = redactText(text, [{ start: 2, end: 6, label: 'a' }, { start: 4, end: 9, label: 'b' }]);
  assert.equal(out, 'ab«secret: a»j');
  assert.ok(!out.replace('«secret: a»', '').match(/[c-i]/));
});

test('spans past the end or empty are ignored safely', () => {
  assert.equal(redactText('abc', [{ start: 1, end: 99, label: 'x' }, { start: 2, end: 2, label: 'y' }]), 'a«secret: x»');
});
