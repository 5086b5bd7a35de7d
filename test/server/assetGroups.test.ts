/**
 * GET /satchel/assets/groups and /satchel/assets/groups/page: the Assets tree's group counts (by
 * language, by tag with "untagged", memories apart) and one group read a page at a time (a language
 * newest first, a tag in id order) until the cursor runs out; bad input is a 4xx JSON answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode, request, withClient } from '../support/helpers.ts';
import { assetText } from '../../src/client/assets.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { PLANTED } from '../core/secrets/plantedSecrets.ts';

test('group counts and pages: every asset of a group once, newest first, memories apart; bad input is 4xx', async () => {
  await withClient(async (client, server) => {
    const application = { id: 'test', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: false, privacy: 'OPEN' } as never;
    const ts: string[] = [];
    for (let i = 0; i < 7; i++) ts.push((await client.assets.createFromText({ text: `const v${i} = ${i};`, application, language: 'ts', name: `ts ${i}` })).id);
    const aws = PLANTED.find((p) => p.shape === 'aws:AWSSecretAccessKey')!;
    const py = await client.assets.createFromText({ text: `import boto3\n${aws.text}\n`, application, language: 'py', name: 'boto3' });
    await client.snippets.setInfo(ts[0]!, { prefixes: ['alpha'] });
    await client.snippets.setInfo(ts[1]!, { prefixes: ['alpha', 'beta'] });
    const memory = await server.core.memories.save({ title: 'a note', summary: 'not a snippet' }, authorOf('mcp', 'Cursor'));

    const byLanguage = await client.snippets.groups('language');
    assert.equal(byLanguage.total, 8, 'the memory is not counted');
    assert.deepEqual(Object.fromEntries(byLanguage.groups.map((group) => [group.key, group.count])), { ts: 7, py: 1 });

    const byTag = await client.snippets.groups('tag');
    assert.equal(byTag.total, 8);
    const counts = Object.fromEntries(byTag.groups.map((group) => [group.label ?? '(untagged)', group.count]));
    assert.deepEqual(counts, { alpha: 2, beta: 1, '(untagged)': 6 });

    // Pages of 3: 3 + 3 + 1, newest first, no repeats, the last without a cursor.
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await client.snippets.groupPage('language', 'ts', { after: after ?? '', limit: 3 });
      pages++;
      assert.ok(page.iterable.length <= 3);
      seen.push(...page.iterable.map((asset) => asset.id));
      assert.equal(assetText(page.iterable[0]!), '', 'pages come without content');
      after = page.next;
    } while (after !== undefined);
    assert.equal(pages, 3);
    const created = new Map((await client.snippets.byId(ts)).map((asset) => [asset.id, asset.created.value]));
    const newestFirst = [...ts].sort((a, b) => created.get(b)!.localeCompare(created.get(a)!) || b.localeCompare(a));
    assert.deepEqual(seen, newestFirst, 'newest first (ties by id)');

    const [pyPage] = (await client.snippets.groupPage('language', 'py')).iterable;
    assert.equal(pyPage!.id, py.id);
    assert.equal(pyPage!.sensitives?.iterable?.length, 1, 'a page carries the secrets the tree counts');

    const alpha = byTag.groups.find((group) => group.label === 'alpha')!;
    assert.deepEqual((await client.snippets.groupPage('tag', alpha.key)).iterable.map((a) => a.id).sort(), [ts[0], ts[1]].sort());
    const untagged = await client.snippets.groupPage('tag', '', { limit: 500 });
    assert.equal(untagged.iterable.length, 6);
    assert.equal(untagged.next, undefined);
    assert.ok(!untagged.iterable.some((asset) => asset.id === memory.asset), 'memories are not in a group');
    assert.deepEqual((await client.snippets.groupPage('language', 'rust')).iterable, [], 'an empty group is an empty page');

    const cases: Array<[string, number]> = [
      ['/satchel/assets/groups?by=size', 400],
      ['/satchel/assets/groups/page?key=ts', 400],
      ['/satchel/assets/groups/page?by=language', 400],
      ['/satchel/assets/groups/page?by=language&key=ts&limit=0', 400],
      ['/satchel/assets/groups/page?by=language&key=ts&limit=501', 400],
      ['/satchel/assets/groups/page?by=language&key=ts&limit=ten', 400],
      [`/satchel/assets/groups/page?by=language&key=${'k'.repeat(300)}`, 400],
      [`/satchel/assets/groups/page?by=language&key=ts&after=${'a'.repeat(300)}`, 400],
      ['/satchel/assets/groups/page?by=language&key=ts&after=not-a-cursor', 400],
    ];
    for (const [path, status] of cases) {
      const answer = await request(server.url, 'GET', path);
      assert.equal(answer.status, status, path.slice(0, 90));
      assert.equal(errorCode(answer), 'invalid_input', path.slice(0, 90));
    }
    const bound = await request(server.url, 'GET', '/satchel/assets/groups/page?by=language&key=ts&limit=500');
    assert.equal(bound.status, 200, 'the bound itself is accepted');
  });
});
