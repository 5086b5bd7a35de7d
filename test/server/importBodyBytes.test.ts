/**
 * POST /satchel/import through a real host, for bodies importBody.ts reads (issue 34): each file's text
 * reaches the import as its JSON string's bytes, never as a string of the host's, and the body's
 * memory is freed once the import has taken it; a body it does not read answers as before (the
 * JSON parser's and the schema's 400s).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, postChunked, type TestServer } from '../support/helpers.ts';
import type { ImportSource } from '../../src/core/import/importSource.ts';

let h: TestServer;
before(async () => {
  h = await startTestServer();
});
after(async () => {
  await h.close();
});

/** A VS Code snippet file of `count` snippets, about 100 bytes each. */
function snippetFile(tag: string, count: number): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`${tag} ${i}`, { prefix: `${tag}${i}`, body: `const ${tag}${i} = "${i}" + '\\n';` }])));
}

/** Records each source the host's import takes, until `restore`. */
function watchImportSources(): { seen: ImportSource[]; restore: () => void } {
  const seen: ImportSource[] = [];
  const imports = h.core.imports;
  const original = imports.import.bind(imports);
  imports.import = (sources, options) =>
    original(
      (async function* () {
        for await (const source of sources) {
          seen.push(source);
          yield source;
        }
      })(),
      options,
    );
  return { seen, restore: () => void (imports.import = original) };
}

function summaryOf(reply: { status: number; text: string }): { imported: number; duplicates: number } {
  assert.equal(reply.status, 200, reply.text);
  const last = JSON.parse(reply.text.trim().split('\n').at(-1)!) as { summary?: { imported: number; duplicates: number } };
  assert.ok(last.summary, reply.text.slice(-500));
  return last.summary;
}

test('a large import body: each file reaches the import as bytes, freed once taken; the snippets are all written', async () => {
  const { seen, restore } = watchImportSources();
  try {
    const body = JSON.stringify({ files: [{ name: 'a.code-snippets', content: snippetFile('alpha', 15_000) }, { name: 'b.code-snippets', content: snippetFile('beta', 5_000) }], batchSize: 1000 });
    assert.ok(body.length > 1024 * 1024);
    const summary = summaryOf(await request(h.url, 'POST', '/satchel/import', { body }));
    assert.equal(summary.imported, 20_000);
  } finally {
    restore();
  }
  assert.equal(seen.length, 2);
  for (const source of seen) {
    assert.ok('jsonText' in source, `${source.name} came as bytes`);
    assert.ok(!('text' in source));
    assert.equal(source.jsonText.buffer.byteLength, 0, `${source.name}: the body's buffer was freed once the import took it`);
  }
});

test('large bodies it does not read are refused as the JSON parser and the schema refuse them', async () => {
  const content = snippetFile('gamma', 15_000);
  const malformed = JSON.stringify({ files: [{ name: 'a.code-snippets', content }] }).replace('gamma 7', 'gamma \\x7');
  const cases: Array<{ body: string; code: string }> = [
    { body: malformed, code: 'malformed_json' },
    { body: JSON.stringify({ files: [{ name: 'n'.repeat(5000), content }] }), code: 'invalid_input' },
    { body: JSON.stringify({ files: [{ name: 'a.code-snippets', content }], format: 'zip' }), code: 'invalid_input' },
    { body: JSON.stringify({ files: [{ name: 'a.code-snippets', content }], batchSize: 0 }), code: 'invalid_input' },
    { body: JSON.stringify({ files: [{ name: 'a.code-snippets', content }], files2: 1 }).replace('"files2"', '"files"'), code: 'invalid_input' },
  ];
  const before = h.core.assets.identifiers().length;
  for (const { body, code } of cases) {
    assert.ok(body.length > 1024 * 1024);
    const reply = await request(h.url, 'POST', '/satchel/import', { body });
    assert.equal(reply.status, 400, reply.text.slice(0, 300));
    assert.equal(reply.json?.error?.code, code, reply.text.slice(0, 300));
  }
  assert.equal(h.core.assets.identifiers().length, before, 'nothing imported');
});

test('bodies of no declared length arrive whole, whatever pieces they come in', async () => {
  for (const [tag, count, pieces] of [
    ['small', 20, [1, 7]],
    ['edge', 700, [65_535, 1, 1, 65_536]],
    ['large', 4000, [1, 65_537, 3, 131_071, 200_000, 5]],
  ] as const) {
    const body = Buffer.from(JSON.stringify({ files: [{ name: `${tag}.code-snippets`, content: snippetFile(tag, count) }] }));
    assert.equal(summaryOf(await postChunked(h.url, '/satchel/import', body, pieces)).imported, count, tag);
  }
});

test('a large body of no declared length is freed once the import has taken it', async () => {
  const { seen, restore } = watchImportSources();
  try {
    const body = Buffer.from(JSON.stringify({ files: [{ name: 'chunked.code-snippets', content: snippetFile('delta', 12_000) }] }));
    assert.ok(body.length > 1024 * 1024);
    assert.equal(summaryOf(await postChunked(h.url, '/satchel/import', body, [100_000, 300_000, 700_000])).imported, 12_000);
  } finally {
    restore();
  }
  assert.equal(seen.length, 1);
  const [source] = seen;
  assert.ok(source !== undefined && 'jsonText' in source);
  assert.equal(source.jsonText.buffer.byteLength, 0, "the body's buffer was freed once the import took it");
});
