/**
 * Replies produced with turns of the event loop (jsonValueReply, and every paged reply's items)
 * are the JSON.stringify of the same value, byte for byte, whatever their large strings hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonValueReply } from '../../src/server/jsonEncode.ts';

async function encoded(value: unknown): Promise<{ text: string; parts: number }> {
  const parts: Buffer[] = [];
  for await (const part of jsonValueReply(value)) parts.push(part);
  return { text: Buffer.concat(parts).toString('utf8'), parts: parts.length };
}

test('a large string is encoded in parts, its escapes and surrogate pairs intact across their ends', async () => {
  const MiB = 1024 * 1024;
  // A pair astride the first part's end, quotes, backslashes, control characters and a lone surrogate.
  const large = `${'a'.repeat(MiB - 1)}😀${'"\\\n\t\u0001é'.repeat(200_000)}\ud800 end`;
  const value = { reuse: { suggested: false }, target: { seed: { asset: { format: { fragment: { string: { raw: large } } } } }, vector: 0 }, n: [1, null] };
  const { text, parts } = await encoded(value);
  assert.equal(text, JSON.stringify(value));
  assert.ok(parts > 2, `${parts} parts`);
});

test('a reply without a large string is one part', async () => {
  const value = { save: { suggested: true }, text: 'small', list: [1, 'two', { three: 3 }] };
  assert.deepEqual(await encoded(value), { text: JSON.stringify(value), parts: 1 });
});
