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
