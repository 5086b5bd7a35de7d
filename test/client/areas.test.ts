import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor, withClient } from '../support/helpers.ts';
import { ClientError, assetText } from '../../src/client/satchelClient.ts';
import type { StreamedIdentifiers } from '../../src/core/piecesTypes.ts';


test('assets: create, get, rename, tag, link, search, export, stream, delete', async () => {
  await withClient(async (client) => {
    const frames: StreamedIdentifiers[] = [];
    client.assetIdentifiers().onFrame((frame) => frames.push(frame));
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: 'const answer = 42;\nconsole.log(answer);\n', application, language: 'ts', name: 'Answer' });
    assert.match(assetText(await client.assets.get(created.id)), /answer = 42/);
    assert.equal((await client.assets.rename(created.id, 'The answer')).name, 'The answer');
    const tag = await client.assets.addTag(created.id, 'numbers');
    await client.assets.linkWebsite(created.id, 'https://example.com/answer');
    const asset = await client.assets.get(created.id);
    assert.deepEqual(asset.tags?.iterable?.map((x) => x.id), [tag.id]);
    assert.equal(asset.websites?.iterable?.length, 1);
    const found = await client.assets.search('answer');
    assert.ok(found.iterable.some((hit) => hit.asset?.id === created.id || hit.identifier === created.id));
    const exported = await client.assets.export(created.id, 'MD');
    assert.match(exported.raw.string?.raw ?? Buffer.from(exported.raw.bytes?.raw ?? []).toString(), /answer/);
    await waitFor(() => frames.some((f) => f.iterable.some((e) => e.asset?.id === created.id)));
    assert.equal(await client.assets.delete(created.id), created.id);
    await waitFor(() => frames.some((f) => f.iterable.some((e) => e.asset?.id === created.id && e.deleted)));
    await assert.rejects(client.assets.get(created.id), (e: unknown) => e instanceof ClientError && e.notFound);
  });
});

test('assets: a snippet created with tags carries them in the create reply and in the store', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: 'SELECT 1;', application, language: 'sql', name: 'One', tags: ['sql', 'probe'] });
    assert.deepEqual(created.tags?.iterable.map((tag) => tag.text).sort(), ['probe', 'sql']);
    assert.deepEqual((await client.assets.get(created.id)).tags?.iterable.map((tag) => tag.text).sort(), ['probe', 'sql']);
    assert.equal(created.name, 'One');
  });
});

test('connector: a copy of a saved snippet suggests reuse; a save reaction creates an asset', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const code = 'export function clamp(value: number, min: number, max: number): number {\n  return Math.min(max, Math.max(min, value));\n}\n';
    const saved = await client.assets.createFromText({ text: code, application, language: 'ts' });
    const reuse = await client.connector.suggest(application.id, code.split('\n').slice(0, 2).join('\n'), 'ts');
    assert.equal(reuse.reuse.suggested, true);
    assert.equal(reuse.reuse.assets.iterable[0]?.id, saved.id);
    const fresh = 'def slugify(text, separator="-"):\n    words = [w for w in text.lower().split() if w.isalnum()]\n    return separator.join(words)\n';
    const save = await client.connector.suggest(application.id, fresh, 'py');
    assert.equal(save.save.suggested, true);
    const id = await client.connector.react(application.id, { save: true, seed: { asset: { format: { fragment: { string: { raw: fresh } } } } } });
    assert.match(assetText(await client.assets.get(id)), /slugify/);
    assert.equal(typeof (await client.connector.track(application.id, saved.id, 'inserted')), 'string');
  });
});

test('conversations: create, add messages, associate an asset, summarize, delete', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const asset = await client.assets.createFromText({ text: 'SELECT id FROM users WHERE id > 10 ORDER BY id LIMIT 20;', application, language: 'sql' });
    const conversation = await client.conversations.create({ name: 'Pagination' });
    await client.conversations.addMessage(conversation.id, 'USER', 'How do I paginate a users table by id?');
    await client.conversations.addMessage(conversation.id, 'ASSISTANT', 'Use keyset pagination: WHERE id > last_id ORDER BY id LIMIT n.');
    await client.conversations.associateAsset(conversation.id, asset.id);
    assert.equal((await client.conversations.messages(conversation.id)).iterable.length, 2);
    assert.ok((await client.conversations.list()).iterable.some((c) => c.id === conversation.id));
    const summary = await client.conversations.summarize(conversation.id);
    assert.ok((await client.conversations.annotation(summary.annotation.id)).text.length > 0);
    assert.ok((await client.conversations.rename(conversation.id)).name);
    await client.conversations.delete(conversation.id);
    await assert.rejects(client.conversations.get(conversation.id), (e: unknown) => e instanceof ClientError && e.notFound);
  });
});

test('models: the catalog lists, and an unknown model is a 404 ClientError', async () => {
  await withClient(async (client) => {
    const models = await client.models.list();
    assert.ok(models.iterable.length > 0);
    const first = models.iterable[0]!;
    assert.equal((await client.models.get(first.id)).id, first.id);
    await assert.rejects(client.models.download('nope'), (e: unknown) => e instanceof ClientError && e.status === 404);
  });
});
