/**
 * A request of files is written in pieces (src/client/imports.ts, importJsonPieces) so the extension
 * host never builds or escapes a large file's text at once: the pieces must join into exactly the
 * JSON the whole body would be, whatever the text holds, and none may be much larger than a piece.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importJsonPieces } from '../../src/client/imports.ts';

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

test('the pieces join into the body JSON.stringify gives, a surrogate pair never split between pieces', async () => {
  const piece = 128 * 1024;
  // An emoji (two UTF-16 units) straddling the first piece's end, quotes, backslashes, controls and newlines.
  const content = `${'a'.repeat(piece - 1)}😀"\\\n\t\u0001${'é"'.repeat(piece)}😀`;
  const body = { files: [{ name: 'one "x".code-snippets', content }, { name: 'two.json', content: '' }, { name: 'three.json', content: '{"a":1}' }], format: 'vscode', batchSize: 50 };
  const pieces = await collect(importJsonPieces(body));
  const joined = pieces.join('');
  assert.equal(joined, JSON.stringify(body));
  assert.deepEqual(JSON.parse(joined), body);
  // No lone surrogate was escaped: the text is not split inside a pair.
  assert.doesNotMatch(joined, /\\ud[89ab]/i);
  assert.ok(Math.max(...pieces.map((p) => p.length)) <= 2 * piece + 64, 'a piece is bounded');
  assert.ok(pieces.length > 4, 'a large file is written in several pieces');
});

test('without format or batch size the body is the files alone', async () => {
  const body = { files: [{ name: 'a.json', content: '{}' }] };
  assert.equal((await collect(importJsonPieces(body))).join(''), JSON.stringify(body));
});
