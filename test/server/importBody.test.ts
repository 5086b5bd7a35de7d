/**
 * An import body read without turning its files' text into strings (src/server/importBody.ts): what
 * it reads is what JSON.parse reads, each file's content left as its JSON string's bytes; anything
 * it does not accept (malformed, another shape) is left to the JSON parser; the bytes are freed on
 * release; and a large body is read in slices, the event loop turning between them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importBodySkeleton, readImportBody, takeFileTexts } from '../../src/server/importBody.ts';
import { importJsonPieces } from '../../src/client/importPieces.ts';
import { textOfJsonString } from '../../src/core/import/jsonText.ts';

async function clientBody(files: Array<{ name: string; content: string }>, rest: { format?: string; batchSize?: number } = {}): Promise<Buffer> {
  let text = '';
  for await (const piece of importJsonPieces({ files, ...rest })) text += piece;
  return Buffer.from(text);
}

/** What JSON.parse reads of the body, every file's content ''. */
function expectedSkeleton(body: Buffer): unknown {
  const value = JSON.parse(body.toString('utf8')) as { files?: Array<Record<string, unknown>> };
  for (const file of value.files ?? []) if ('content' in file) file.content = '';
  return value;
}

const CONTENTS = [
  'plain text',
  '',
  'quotes " and \\ backslashes, a / slash',
  'lines\nand\ttabs\r\n and \u0000 \u001f controls',
  'unicode: é ü 中文 — and an emoji 🎉 (a surrogate pair), \u2028 \u2029',
  'a lone surrogate \ud800 as JSON.stringify escapes it',
  '{"json": ["inside", 1, true, null]}',
  'x'.repeat(200_000),
];

test('the client\'s bodies: the skeleton is what JSON.parse reads, and each file\'s bytes decode to its text', async () => {
  const files = CONTENTS.map((content, index) => ({ name: `file ${index} « ${'n'.repeat(index)} ».code-snippets`, content }));
  for (const rest of [{}, { format: 'vscode' }, { batchSize: 250 }, { format: 'gist', batchSize: 1 }]) {
    const body = await clientBody(files, rest);
    const skeleton = await importBodySkeleton(body);
    assert.ok(skeleton, `read ${JSON.stringify(rest)}`);
    assert.deepEqual(skeleton.value, expectedSkeleton(body));
    assert.equal(skeleton.contents.length, files.length);
    skeleton.contents.forEach((bytes, index) => {
      assert.ok(bytes);
      assert.equal(textOfJsonString(body.subarray(bytes.start, bytes.end)), files[index]!.content);
    });
  }
});

test('JSON written by hand: whitespace, key order, escapes in keys and names, numbers as JSON.parse reads them', async () => {
  const bodies = [
    ' \n\t{ "batchSize" : 2.5e1 ,\r\n "files" : [ { "content" : "a\\u0062c" , "name" : "n\\u00e9" } , {"name":"only a name"}, {} ] , "format":"vscode" } \n',
    '{"files":[]}',
    '{}',
    '{"fi\\u006ces":[{"name":"x","content":"y"}]}',
    '{"files":[{"name":"x","content":"y"}],"batchSize":-0}',
    '{"files":[{"name":"x","content":"y"}],"batchSize":1E+2}',
  ];
  for (const text of bodies) {
    const body = Buffer.from(text);
    const skeleton = await importBodySkeleton(body);
    assert.ok(skeleton, text);
    assert.deepEqual(skeleton.value, expectedSkeleton(body), text);
  }
  const skeleton = await importBodySkeleton(Buffer.from(bodies[0]!));
  const first = skeleton?.contents[0];
  assert.ok(first);
  assert.equal(textOfJsonString(Buffer.from(bodies[0]!).subarray(first.start, first.end)), 'abc');
  assert.equal(skeleton?.contents[1], undefined);
});

test('malformed bodies and other shapes are left to the JSON parser', async () => {
  const bodies: Array<string | Buffer> = [
    '',
    '[]',
    'null',
    '{"files":[{"name":"x","content":"unterminated}]}',
    '{"files":[{"name":"x","content":"bad \\x escape"}]}',
    '{"files":[{"name":"x","content":"short \\u12 escape"}]}',
    '{"files":[{"name":"x","content":"a raw \n line feed"}]}',
    '{"files":[{"name":"x","content":"y"},]}',
    '{"files":[{"name":"x","content":"y"}],}',
    '{"files":[{"name":"x","content":"y"}]} trailing',
    '{"files":[{"name":"x","content":"y"}]}{}',
    '{"files":[{"name":"x","content":"y"}],"files":[]}',
    '{"files":[{"name":"x","name":"y","content":"z"}]}',
    '{"files":[{"name":"x","content":"y"}],"parts":[]}',
    '{"files":[{"name":"x","content":"y","extra":1}]}',
    '{"files":[{"name":"x","content":5}]}',
    '{"files":[{"name":7,"content":"y"}]}',
    '{"files":{"name":"x"}}',
    '{"files":[["x"]]}',
    '{"format":null}',
    '{"batchSize":"5"}',
    '{"batchSize":01}',
    '{"batchSize":1.}',
    '{"batchSize":-}',
    '{"batchSize":1e}',
    "{'files':[]}",
    '\ufeff{"files":[]}',
    Buffer.concat([Buffer.from('{"files":[{"name":"x","content":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]),
    Buffer.concat([Buffer.from('{"files":[{"name":"x","content":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}]}')]),
  ];
  for (const text of bodies) assert.equal(await importBodySkeleton(typeof text === 'string' ? Buffer.from(text) : text), undefined, String(text));
});

test('any body it reads is one JSON.parse reads the same way (random corruptions of valid bodies)', async () => {
  const base = await clientBody([{ name: 'a.json', content: 'é "q" \\ \n 🎉 {"k": [1, 2]}' }, { name: 'b', content: 'x\ty' }], { format: 'vscode', batchSize: 12 });
  const handWritten = Buffer.from(' { "files" : [ { "name" : "n" , "content" : "\\u00e9\\n" } ] , "batchSize" : 1.5e-3 } ');
  const alphabet = Buffer.from('{}[],:"\\ \n0123456789eE+-.ubfnrtx\u0001');
  let seed = 42;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  let read = 0;
  for (let round = 0; round < 4000; round++) {
    const body = Buffer.from(round % 2 === 0 ? base : handWritten);
    for (let edits = 1 + random(3); edits > 0; edits--) body[random(body.length)] = alphabet[random(alphabet.length)]!;
    const skeleton = await importBodySkeleton(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch {
      assert.equal(skeleton, undefined, `read a body JSON.parse refuses: ${body.toString('latin1')}`);
      continue;
    }
    if (skeleton === undefined) continue;
    read++;
    assert.deepEqual(skeleton.value, expectedSkeleton(body), body.toString('latin1'));
    const files = (parsed as { files?: Array<{ content?: string }> }).files ?? [];
    skeleton.contents.forEach((bytes, index) => {
      if (bytes !== undefined) assert.equal(textOfJsonString(body.subarray(bytes.start, bytes.end)), files[index]?.content);
    });
  }
  assert.ok(read > 100, `some corrupted bodies are still valid and read (${read})`);
});

test('a large body is read in slices: the event loop turns while it is checked', async () => {
  const body = await clientBody([{ name: 'big.code-snippets', content: 'line of text\n'.repeat(400_000) }]);
  assert.ok(body.length > 4 * 1024 * 1024);
  let turns = 0;
  let turning = true;
  const spin = (): void => {
    turns++;
    if (turning) setImmediate(spin);
  };
  setImmediate(spin);
  const skeleton = await importBodySkeleton(body);
  turning = false;
  assert.ok(skeleton);
  assert.ok(turns >= 4, `the loop turned ${turns} times while ${body.length} bytes were read`);
});

test('the body read for the route: its files as bytes, taken once; release frees the body\'s buffer', async () => {
  const content = 'y'.repeat(100_000);
  const text = (await clientBody([{ name: 'a', content }, { name: 'b', content: 'z' }])).toString();
  // A body of its own buffer, as body.ts reads a large one.
  const raw = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  raw.write(text);
  const ctx = { request: {} as { body?: unknown } };
  assert.equal(await readImportBody(raw, ctx), true);
  assert.deepEqual(ctx.request.body, { files: [{ name: 'a', content: '' }, { name: 'b', content: '' }] });
  const read = takeFileTexts(ctx);
  assert.ok(read);
  assert.equal(takeFileTexts(ctx), undefined, 'taken once');
  assert.equal(textOfJsonString(read.texts[0]!), content);
  assert.equal(textOfJsonString(read.texts[1]!), 'z');
  read.release();
  assert.equal(raw.buffer.byteLength, 0, 'the body\'s memory is let go of at once');
  read.release();

  const malformed = { request: {} as { body?: unknown } };
  assert.equal(await readImportBody(Buffer.from('{"files":[}'), malformed), false);
  assert.equal(malformed.request.body, undefined);
  assert.equal(takeFileTexts(malformed), undefined);
});
