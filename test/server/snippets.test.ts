/** Satchel's snippet routes over HTTP: completions, snippet facts, export, and an import by parts keeping the facts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorCode, request, withClient } from '../support/helpers.ts';
import { assetText, hasContent } from '../../src/client/assets.ts';
import { PLANTED } from '../core/secrets/plantedSecrets.ts';

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

test('Raycast snippets, the Snippets extension’s export and JetBrains live templates imported through the host keep their prefixes and tab stops', async () => {
  await withClient(async (client, server) => {
    const files = ['raycast.json', 'snippets-extension.json', 'jetbrains-templates.xml'].map((name) => ({ name, content: readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url), 'utf8') }));
    const answer = await request(server.url, 'POST', '/satchel/import', { body: { files } });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /"imported":13/);
    const [logger] = (await client.snippets.completions('logg', { language: 'java' })).candidates;
    assert.deepEqual([logger?.prefixes, logger?.syntax], [['logg'], true]);
    const [clean] = (await client.snippets.completions('gbclean', { language: 'shellscript' })).candidates;
    assert.deepEqual(clean?.prefixes, ['gbclean']);
    const assets = (await client.assets.list({ transferables: true })).iterable;
    const log = assets.find((asset) => asset.name === 'Console Log')!;
    assert.equal(assetText(log), 'console.log($0)');
    assert.deepEqual(await client.snippets.info(log.id), { asset: log.id, syntax: true, prefixes: ['log'], tags: ['log'] });
    const fetchTimeout = assets.find((asset) => asset.name === 'Fetch with timeout')!;
    assert.equal((await client.snippets.info(fetchTimeout.id)).syntax, true);
  });
});

test('POST /satchel/assets/by-id answers the assets named that exist, in order, without content unless asked; bad input is 4xx', async () => {
  await withClient(async (client, server) => {
    const application = { id: 'test', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: false, privacy: 'OPEN' } as never;
    const first = await client.assets.createFromText({ text: 'const first = 1;', application, language: 'ts', name: 'First' });
    const second = await client.assets.createFromText({ text: 'print("second")', application, language: 'py', name: 'Second' });
    const lean = await client.snippets.byId([second.id, 'missing', first.id, second.id]);
    assert.deepEqual(lean.map((asset) => asset.id), [second.id, first.id], 'a missing id is left out, a repeated one answered once');
    assert.equal(lean[0]!.name, 'Second');
    assert.equal(lean[0]!.original?.reference?.classification?.specific, 'py');
    assert.equal(assetText(lean[0]!), '', 'no content unless asked');
    assert.equal(hasContent(lean[0]!), false);
    const full = await client.snippets.byId([first.id], { transferables: true });
    assert.equal(assetText(full[0]!), 'const first = 1;');
    assert.equal(hasContent(full[0]!), true);
    // A lean record still carries the secrets found in it: the editor counts them and marks them by value.
    const aws = PLANTED.find((p) => p.shape === 'aws:AWSSecretAccessKey')!;
    const secret = await client.assets.createFromText({ text: `import boto3\n${aws.text}\n`, application, language: 'py', name: 'boto3' });
    const [leanSecret] = await client.snippets.byId([secret.id]);
    assert.equal(assetText(leanSecret!), '');
    assert.equal(leanSecret!.sensitives?.iterable?.length, 1);
    // The client splits a long list into requests the route accepts.
    const many = await client.snippets.byId([...Array.from({ length: 700 }, (_, i) => `missing-${i}`), first.id]);
    assert.deepEqual(many.map((asset) => asset.id), [first.id]);

    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'invalid_input'],
      [{ ids: [] }, 400, 'invalid_input'],
      [{ ids: 'abc' }, 400, 'invalid_input'],
      [{ ids: [1, 2] }, 400, 'invalid_input'],
      [{ ids: [''] }, 400, 'invalid_input'],
      [{ ids: ['x'.repeat(300)] }, 400, 'invalid_input'],
      [{ ids: Array.from({ length: 501 }, (_, i) => `id-${i}`) }, 400, 'invalid_input'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await request(server.url, 'POST', '/satchel/assets/by-id', { body });
      assert.equal(answer.status, status, JSON.stringify(body).slice(0, 80));
      assert.equal(errorCode(answer), code, JSON.stringify(body).slice(0, 80));
    }
    const bounded = await request(server.url, 'POST', '/satchel/assets/by-id', { body: { ids: Array.from({ length: 500 }, (_, i) => (i === 499 ? first.id : `id-${i}`)) } });
    assert.equal(bounded.status, 200, 'the bound itself is accepted');
    assert.match(bounded.text, new RegExp(first.id));
  });
});
