/** Satchel's snippet routes over HTTP: completions, snippet facts, export, and an import by parts keeping the facts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode, request, withClient } from '../support/helpers.ts';
import { assetText } from '../../src/client/assets.ts';

test('completions, facts and export through the client; errors are 4xx JSON', async () => {
  await withClient(async (client, server) => {
    const application = { id: 'test', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: false, privacy: 'OPEN' } as never;
    const asset = await client.assets.createFromText({ text: 'console.log(${1:value});', application, language: 'ts', name: 'Log a value' });
    assert.deepEqual(await client.snippets.info(asset.id), { asset: asset.id, syntax: false, prefixes: [], tags: [] });
    const set = await client.snippets.setInfo(asset.id, { syntax: true, prefixes: ['clog'] });
    assert.deepEqual(set, { asset: asset.id, syntax: true, prefixes: ['clog'], tags: ['clog'] });
    const tagged = await client.assets.get(asset.id);
    assert.deepEqual(tagged.tags?.iterable?.map((t) => t.text), ['clog'], 'the prefix became a tag');

    const reply = await client.snippets.completions('clo', { language: 'typescript' });
    assert.equal(reply.candidates.length, 1);
    assert.equal(reply.candidates[0]!.text, 'console.log(${1:value});');
    assert.equal(reply.candidates[0]!.syntax, true);
    assert.deepEqual((await client.snippets.completions('clo', { language: 'python' })).candidates, []);
    assert.equal((await client.snippets.completions('', { language: 'typescript', limit: 1 })).candidates.length, 1);

    const exported = await client.snippets.exportCodeSnippets({ asset: asset.id });
    assert.deepEqual(JSON.parse(exported.content), { 'Log a value': { prefix: 'clog', body: ['console.log(${1:value});'], scope: 'typescript' } });
    assert.equal((await client.snippets.exportCodeSnippets({ tag: 'clog' })).count, 1);

    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', `/satchel/assets/${asset.id}/snippet`, {}, 400, 'invalid_input'],
      ['POST', `/satchel/assets/${asset.id}/snippet`, { syntax: 'yes' }, 400, 'invalid_input'],
      ['POST', `/satchel/assets/${asset.id}/snippet`, { prefixes: ['x'.repeat(300)] }, 413, 'too_large'],
      ['POST', '/satchel/assets/missing/snippet', { syntax: true }, 404, 'not_found'],
      ['GET', '/satchel/assets/missing/snippet', undefined, 404, 'not_found'],
      ['GET', '/satchel/snippets/completions?query=x&limit=0', undefined, 400, 'invalid_input'],
      ['GET', '/satchel/snippets/completions?query=x&limit=ten', undefined, 400, 'invalid_input'],
      ['GET', '/satchel/snippets/export', undefined, 400, 'invalid_input'],
      ['GET', `/satchel/snippets/export?asset=${asset.id}&tag=clog`, undefined, 400, 'invalid_input'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const answer = await request(server.url, method, path, body === undefined ? {} : { body });
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.equal(errorCode(answer), code, `${method} ${path}`);
    }
    assert.deepEqual(await client.snippets.info(asset.id), { asset: asset.id, syntax: true, prefixes: ['clog'], tags: ['clog'] }, 'refused changes wrote nothing');
  });
});

test('an import sent as parts (a file read on the client side) keeps snippet syntax and prefixes', async () => {
  await withClient(async (client, server) => {
    const body = {
      parts: [{ name: 'big.code-snippets', format: 'vscode', snippets: [{ name: 'For each', text: 'for (const ${1:item} of ${2:items}) {}', language: 'ts', tags: ['fe'], syntax: true, prefixes: ['fe'] }] }],
    };
    const answer = await request(server.url, 'POST', '/satchel/import', { body });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /"imported":1/);
    const [candidate] = (await client.snippets.completions('fe', { language: 'typescript' })).candidates;
    assert.equal(candidate?.syntax, true);
    assert.deepEqual(candidate?.prefixes, ['fe']);
    const asset = await client.assets.get(candidate!.id);
    assert.equal(assetText(asset), 'for (const ${1:item} of ${2:items}) {}');
  });
});
