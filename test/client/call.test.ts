/**
 * HttpTransport.call: one typed call per declared operation. Path parameters are filled from the
 * declaration (and required by the compiler), each reply kind is read as declared, and NDJSON
 * lines are read as they arrive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { HttpTransport } from '../../src/client/http.ts';
import { ClientError } from '../../src/client/errors.ts';
import { assetOperations } from '../../src/wire/assets.ts';
import { hostOperations } from '../../src/wire/host.ts';
import { connectorOperations } from '../../src/wire/connector.ts';
import { importOperations } from '../../src/wire/imports.ts';
import { startTestServer } from '../support/helpers.ts';
import { textSeed } from '../../src/client/assets.ts';

test('call fills the path from its parameters and reads json, text and void replies as declared', async () => {
  const t = await startTestServer();
  const http = new HttpTransport(t.url);
  try {
    assert.equal(await http.call(hostOperations.health), 'ok');
    const { application } = await http.call(connectorOperations.connect, { body: { application: { name: 'VS_CODE', version: '1', platform: 'LINUX' } } });
    const seed = textSeed({ text: 'const x = 1;', application, tags: ['a/b c'] });
    const created = await http.call(assetOperations.create, { body: seed });
    const read = await http.call(assetOperations.snapshot, { params: { asset: created.id }, query: { transferables: false } });
    assert.equal(read.id, created.id);
    const tag = read.tags?.iterable?.[0]?.id;
    assert.ok(tag);
    assert.equal(await http.call(assetOperations.disassociateTag, { params: { asset: created.id, tag } }), undefined);
    assert.equal(await http.call(assetOperations.delete, { params: { asset: created.id } }), created.id);
    await assert.rejects(
      http.call(assetOperations.snapshot, { params: { asset: 'no/such id' } }),
      (error: unknown) => error instanceof ClientError && error.status === 404,
    );
  } finally {
    await http.close();
    await t.close();
  }
});

test('the compiler requires what the declaration requires', () => {
  const http = new HttpTransport('http://127.0.0.1:9');
  const calls = [
    // @ts-expect-error a path parameter is missing
    () => http.call(assetOperations.snapshot),
    // @ts-expect-error a path parameter the path does not name
    () => http.call(assetOperations.snapshot, { params: { asset: 'a', tag: 'b' } }),
    // @ts-expect-error the body is not a Seed
    () => http.call(assetOperations.create, { body: { type: 'NOT_A_TYPE' } }),
    // @ts-expect-error an operation that reads no body
    () => http.call(hostOperations.health, { body: {} }),
  ];
  assert.equal(calls.length, 4);
  void http.close();
});

test('NDJSON lines are read as they arrive, a character split between chunks included', async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = Buffer.from(`${JSON.stringify({ progress: { file: 'café.json' } })}\n`);
    const split = line.indexOf(0xc3) + 1; // inside the two bytes of é
    res.write(line.subarray(0, split));
    setTimeout(() => {
      res.write(line.subarray(split));
      res.end(`${JSON.stringify({ summary: { imported: 1 } })}\n`);
    }, 20);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const http = new HttpTransport(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  try {
    const lines: unknown[] = [];
    for await (const line of await http.call(importOperations.import, { body: { files: [{ name: 'x', content: '' }] } })) lines.push(line);
    assert.deepEqual(lines, [{ progress: { file: 'café.json' } }, { summary: { imported: 1 } }]);
  } finally {
    await http.close();
    server.close();
  }
});
