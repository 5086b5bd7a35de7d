/**
 * A request of files is written in pieces (src/client/importPieces.ts) so the extension
 * host never builds or escapes a large file's text at once: the pieces must join into exactly the
 * JSON the whole body would be, whatever the text holds, and none may be much larger than a piece.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importJsonPieces, jsonStringBytes } from '../../src/client/importPieces.ts';
import { importFileFromBytes } from '../../src/core/import/importTree.ts';

async function collect(pieces: AsyncIterable<string | Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) {
    assert.equal(typeof piece, 'string', 'text files are written as text');
    out.push(String(piece));
  }
  return out;
}

/** The pieces as the bytes they put on the wire. */
async function collectBytes(pieces: AsyncIterable<string | Uint8Array>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const piece of pieces) out.push(typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
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

test('a file given as UTF-8 bytes is written as the same JSON, in bounded pieces, without being decoded', async () => {
  const piece = 128 * 1024;
  // Every control character, quotes and backslashes, and characters of 2, 3 and 4 UTF-8 bytes across piece ends.
  const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');
  const content = `${'a'.repeat(piece - 2)}😀é€${controls}"\\/${'ü"\n'.repeat(piece)}😀\u007f`;
  const text = { files: [{ name: 'one "x".code-snippets', content }, { name: 'two.json', content: '' }], format: 'vscode', batchSize: 50 };
  const bytes = { ...text, files: text.files.map((file) => ({ name: file.name, utf8: new TextEncoder().encode(file.content) })) };
  const pieces = await collectBytes(importJsonPieces(bytes));
  const joined = Buffer.concat(pieces);
  assert.equal(joined.toString('utf8'), JSON.stringify(text));
  assert.deepEqual(JSON.parse(joined.toString('utf8')), text);
  assert.ok(Math.max(...pieces.map((p) => p.length)) <= 6 * piece, 'a piece is bounded');
  assert.ok(pieces.length > 4, 'a large file is written in several pieces');
});

test('bytes are escaped as JSON.stringify escapes their text; bytes needing no escape are passed on as they are', () => {
  for (const text of ['', 'plain', 'tab\there', '"q"', 'back\\slash', '\u0000\u001f\u007f', 'snow ☃ and 😀']) {
    assert.equal(Buffer.from(jsonStringBytes(new TextEncoder().encode(text))).toString('utf8'), JSON.stringify(text).slice(1, -1), JSON.stringify(text));
  }
  const plain = new TextEncoder().encode('nothing to escape');
  assert.equal(jsonStringBytes(plain), plain);
  // Every byte value, each as JSON.stringify writes its character below 0x80 and passed on as it is above.
  const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
  const expected = [...every].flatMap((byte) => (byte < 0x80 ? [...Buffer.from(JSON.stringify(String.fromCharCode(byte)).slice(1, -1), 'latin1')] : [byte]));
  assert.deepEqual([...jsonStringBytes(every)], expected);
});

test("a file's bytes go as UTF-8 without a byte-order mark; bytes that are not UTF-8 go as text a decoder reads", () => {
  const bom = importFileFromBytes('a.json', new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  assert.ok('utf8' in bom);
  assert.equal(Buffer.from(bom.utf8).toString('utf8'), '{}');
  const latin1 = importFileFromBytes('b.json', new Uint8Array([0x22, 0xe9, 0x22]));
  assert.deepEqual(latin1, { name: 'b.json', content: '"\ufffd"' });
});

test('without format or batch size the body is the files alone', async () => {
  const body = { files: [{ name: 'a.json', content: '{}' }] };
  assert.equal((await collect(importJsonPieces(body))).join(''), JSON.stringify(body));
});

test('a host that cuts the connection while the pieces are still being written (its refusal of a body it could not hold) is sent the request again', async () => {
  const { createServer } = await import('node:http');
  const { SatchelClient } = await import('../../src/client/satchelClient.ts');
  let attempts = 0;
  let received = '';
  // The first request is refused as the real host refuses a body over its budget: an answer, then the
  // socket destroyed with the rest of the body unread. The second is read whole and answered.
  const server = createServer((req, res) => {
    attempts++;
    if (attempts === 1) {
      req.once('data', () => {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { code: 'busy', message: 'busy' } }));
        req.socket.destroy();
      });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received = Buffer.concat(chunks).toString('utf8');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${JSON.stringify({ summary: { filesDone: 1, files: 1, found: 1, imported: 1, updated: 0, duplicates: 0, failed: 0, failures: [], formats: { vscode: 1 }, cancelled: false, elapsedMs: 1 } })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  const client = new SatchelClient(`http://127.0.0.1:${address.port}`);
  try {
    const content = 'x'.repeat(4 * 1024 * 1024);
    const summary = await client.imports.importFiles([{ name: 'big.code-snippets', read: async () => ({ name: 'big.code-snippets', content }) }]);
    assert.equal(attempts, 2, 'sent again after the cut');
    assert.equal(JSON.parse(received).files[0].content.length, content.length, 'the second request carried the whole body');
    assert.equal(summary.imported, 1);
  } finally {
    client.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
