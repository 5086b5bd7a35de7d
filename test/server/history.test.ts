/**
 * The history routes over HTTP (list, one revision, restore, edit), the ETag every asset read and
 * write carries, If-Match on the interface's update and delete (412 in the JSON error shape with
 * the current revision), and the author each door records: Satchel's own client by its header, a
 * Pieces client by the application it names or its User-Agent, an MCP client by its initialize,
 * the connector by its application, an import by its file.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AssetApi, AssetsApi, Configuration } from '@pieces.app/pieces-os-client';
import { request, startTestServer, type Reply, type TestServer } from '../support/helpers.ts';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { authorHeader, type RevisionList, type RevisionReply, type RevisionSummary } from '../../src/wire/history.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import type { Asset } from '../../src/core/piecesTypes.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const VSCODE = authorHeader(authorOf('vscode', 'Satchel for VS Code'));

/** A request to the test server; a reply that is not JSON (a delete's id) is read as text. */
async function call<T = any>(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply & { json: T }> {
  const reply = await request(t.url, method, path, options);
  return reply.json === undefined && reply.text !== '' ? { ...reply, json: reply.text as T } : reply;
}

function seed(raw: string, name: string, application?: string) {
  return {
    asset: {
      format: { fragment: { string: { raw }, metadata: { ext: 'ts' } } },
      metadata: { name },
      ...(application ? { application: { id: 'x', name: application, version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' } } : {}),
    },
  };
}

async function create(raw: string, name: string, headers: Record<string, string> = { 'satchel-author': VSCODE }): Promise<Reply & { json: Asset }> {
  const reply = await call<Asset>('POST', '/assets/create', { body: seed(raw, name), headers });
  assert.equal(reply.status, 200);
  return reply;
}

const revisionsOf = async (id: string): Promise<RevisionList> => (await call<RevisionList>('GET', `/satchel/assets/${id}/revisions`)).json;

test('GET /asset/{id} sends the current revision as its ETag; an update with If-Match moves it, a stale If-Match gets 412', async () => {
  const created = await create('const etag = 1;\n', 'etag');
  const id = created.json.id;
  const read = await call<Asset>('GET', `/asset/${id}`);
  assert.equal(read.status, 200);
  assert.match(read.etag ?? '', /^"[0-9a-f-]{36}"$/);
  assert.equal(read.etag, created.etag, 'the create answered with the same revision');
  assert.equal((await call('GET', `/assets/${id}`)).etag, read.etag);

  const updated = await call<Asset>('POST', '/asset/update', { body: { ...read.json, name: 'etag renamed' }, headers: { 'if-match': read.etag!, 'satchel-author': VSCODE } });
  assert.equal(updated.status, 200);
  assert.notEqual(updated.etag, read.etag);
  assert.equal((await call('GET', `/asset/${id}`)).etag, updated.etag);

  // A second writer that read the same revision: 412, the JSON error shape, the current revision in the body and the ETag.
  const stale = await call('POST', '/asset/update', { body: { ...read.json, name: 'lost update' }, headers: { 'if-match': read.etag! } });
  assert.equal(stale.status, 412);
  assert.equal(stale.json.error.code, 'stale_revision');
  assert.equal(typeof stale.json.error.message, 'string');
  assert.equal(`"${stale.json.error.currentRevision}"`, updated.etag);
  assert.equal(stale.etag, updated.etag);
  assert.equal((await call<Asset>('GET', `/asset/${id}`)).json.name, 'etag renamed', 'nothing of the refused update was stored');

  // Weak tags, lists and `*` are understood; no If-Match (the Pieces clients) is unconditional.
  assert.equal((await call('POST', '/asset/update', { body: { id, name: 'weak' }, headers: { 'if-match': `W/${updated.etag}` } })).status, 200);
  const current = (await call('GET', `/asset/${id}`)).etag!;
  assert.equal((await call('POST', '/asset/update', { body: { id, name: 'listed' }, headers: { 'if-match': `"nope", ${current}` } })).status, 200);
  assert.equal((await call('POST', '/asset/update', { body: { id, name: 'any' }, headers: { 'if-match': '*' } })).status, 200);
  assert.equal((await call('POST', '/asset/update', { body: { id, name: 'unconditional' } })).status, 200);
});

test('two concurrent updates on one revision over HTTP: one wins, the other gets 412, nothing is lost', async () => {
  const { json: asset, etag } = await create('let raced = 0;\n', 'raced');
  const formatId = asset.formats.iterable[0]!.id;
  const replies = await Promise.all(
    [1, 2].map((n) =>
      call('POST', '/asset/update', {
        body: { id: asset.id, formats: { iterable: [{ id: formatId, fragment: { string: { raw: `let raced = ${n};\n` } } }] } },
        headers: { 'if-match': etag!, 'satchel-author': authorHeader(authorOf('agent', `agent ${n}`)) },
      }),
    ),
  );
  assert.deepEqual(replies.map((r) => r.status).sort(), [200, 412]);
  const winner = replies.findIndex((r) => r.status === 200) + 1;
  const list = await revisionsOf(asset.id);
  assert.equal(list.revisions.length, 2);
  assert.deepEqual(list.revisions[0]!.author, authorOf('agent', `agent ${winner}`));
  const texts = await Promise.all(list.revisions.map(async (r) => (await call<RevisionReply>('GET', `/satchel/assets/${asset.id}/revisions/${r.id}`)).json.content));
  assert.deepEqual(texts, [{ text: `let raced = ${winner};\n` }, { text: 'let raced = 0;\n' }]);
});

test('the three history routes: list newest first, one revision whole, restore as a new revision; errors in the JSON shape', async () => {
  const { json: asset } = await create('export const v = 1;\n', 'routes');
  const first = (await revisionsOf(asset.id)).current;
  const edited = await call('POST', `/satchel/assets/${asset.id}/edit`, {
    body: { content: 'export const v = 2;\n', name: 'routes v2', tags: ['edited'], description: 'second', expectedRevision: first },
    headers: { 'satchel-author': VSCODE },
  });
  assert.equal(edited.status, 200);
  assert.equal(edited.etag, `"${edited.json.revision}"`);
  assert.equal(edited.json.asset.name, 'routes v2');

  const listed = await call<RevisionList>('GET', `/satchel/assets/${asset.id}/revisions`);
  assert.equal(listed.status, 200);
  assert.equal(listed.etag, `"${listed.json.current}"`);
  const [newest, oldest] = listed.json.revisions as RevisionSummary[];
  assert.equal(listed.json.revisions.length, 2);
  assert.equal(newest!.id, edited.json.revision);
  assert.deepEqual(newest!.author, authorOf('vscode', 'Satchel for VS Code'));
  assert.deepEqual(newest!.changes, ['content', 'name', 'tags', 'description']);
  assert.equal(newest!.name, 'routes v2');
  assert.equal(newest!.size, Buffer.byteLength('export const v = 2;\n'));
  assert.ok(!Number.isNaN(Date.parse(newest!.created)));
  assert.equal(oldest!.id, first);

  const old = await call<RevisionReply>('GET', `/satchel/assets/${asset.id}/revisions/${first}`);
  assert.equal(old.status, 200);
  assert.equal(old.etag, `"${newest!.id}"`, 'the ETag is the asset\'s current revision');
  assert.deepEqual([old.json.content, old.json.name, old.json.tags, old.json.description, old.json.current], [{ text: 'export const v = 1;\n' }, 'routes', [], null, false]);

  // A restore based on a stale revision is refused; based on the current one it makes a new revision.
  const stale = await call('POST', `/satchel/assets/${asset.id}/revisions/${first}/restore`, { headers: { 'if-match': `"${first}"` } });
  assert.equal(stale.status, 412);
  assert.equal(stale.json.error.currentRevision, newest!.id);
  const restored = await call<RevisionSummary>('POST', `/satchel/assets/${asset.id}/revisions/${first}/restore`, { headers: { 'if-match': `"${newest!.id}"`, 'satchel-author': VSCODE } });
  assert.equal(restored.status, 200);
  assert.equal(restored.json.restoredFrom, first);
  assert.equal(restored.etag, `"${restored.json.id}"`);
  const now = (await call<Asset>('GET', `/asset/${asset.id}`)).json;
  assert.equal(now.name, 'routes');
  assert.equal(now.formats.iterable[0]?.fragment?.string?.raw, 'export const v = 1;\n');
  assert.deepEqual(now.tags?.iterable, []);
  assert.equal((await revisionsOf(asset.id)).revisions.length, 3);

  for (const [method, path, body, status, code] of [
    ['GET', '/satchel/assets/00000000-0000-4000-8000-000000000000/revisions', undefined, 404, 'not_found'],
    ['GET', `/satchel/assets/${asset.id}/revisions/00000000-0000-7000-8000-000000000000`, undefined, 404, 'not_found'],
    ['POST', `/satchel/assets/${asset.id}/revisions/nope/restore`, undefined, 404, 'not_found'],
    ['POST', `/satchel/assets/${asset.id}/edit`, {}, 400, 'invalid_input'],
    ['POST', `/satchel/assets/${asset.id}/edit`, { language: 'klingon' }, 400, 'invalid_input'],
    ['POST', `/satchel/assets/${asset.id}/edit`, { name: 'x'.repeat(600) }, 413, 'too_large'],
    ['POST', `/satchel/assets/${asset.id}/edit`, { name: 'y', expectedRevision: first }, 412, 'stale_revision'],
  ] as const) {
    const reply = await call(method, path, body !== undefined ? { body } : {});
    assert.equal(reply.status, status, `${method} ${path} ${JSON.stringify(body)}`);
    assert.equal(reply.json.error.code, code);
  }
});

test('a delete with a stale If-Match is refused; the deleted asset\'s revisions stay readable', async () => {
  const { json: asset, etag } = await create('const doomed = true;\n', 'doomed');
  await call('POST', '/asset/update', { body: { id: asset.id, name: 'doomed (renamed)' } });
  assert.equal((await call('POST', `/assets/${asset.id}/delete`, { headers: { 'if-match': etag! } })).status, 412);
  assert.equal((await call('GET', `/asset/${asset.id}`)).status, 200);
  const current = (await call('GET', `/asset/${asset.id}`)).etag!;
  assert.equal((await call('POST', `/assets/${asset.id}/delete`, { headers: { 'if-match': current } })).status, 200);
  assert.equal((await call('GET', `/asset/${asset.id}`)).status, 404);
  const list = await revisionsOf(asset.id);
  assert.equal(list.deleted, true);
  assert.equal(list.revisions.length, 2);
  assert.deepEqual((await call<RevisionReply>('GET', `/satchel/assets/${asset.id}/revisions/${list.revisions[1]!.id}`)).json.content, { text: 'const doomed = true;\n' });
});

test('authors: Satchel\'s header, a Pieces client by its application or User-Agent, the published client unchanged', async () => {
  const own = await create('const byVscode = 1;\n', 'by vscode');
  assert.deepEqual((await revisionsOf(own.json.id)).revisions[0]!.author, { kind: 'vscode', name: 'Satchel for VS Code' });
  const cli = await create('const byCli = 1;\n', 'by cli', { 'satchel-author': authorHeader(authorOf('cli', 'satchel import — ünïcode')) });
  assert.deepEqual((await revisionsOf(cli.json.id)).revisions[0]!.author, { kind: 'cli', name: 'satchel import — ünïcode' });
  const app = await call<Asset>('POST', '/assets/create', { body: seed('const byJetbrains = 1;\n', 'by jetbrains', 'JETBRAINS'), headers: { 'user-agent': 'ignored/1.0' } });
  assert.deepEqual((await revisionsOf(app.json.id)).revisions[0]!.author, { kind: 'pieces-app', name: 'JETBRAINS' });
  const agent = await create('const byUa = 1;\n', 'by ua', { 'user-agent': 'OpenAPI-Generator/1.0.0/python' });
  assert.deepEqual((await revisionsOf(agent.json.id)).revisions[0]!.author, { kind: 'pieces-app', name: 'OpenAPI-Generator/1.0.0/python' });
  const bogus = await create('const byBogus = 1;\n', 'by bogus', { 'satchel-author': 'root; name=x', 'user-agent': 'curl/8' });
  assert.deepEqual((await revisionsOf(bogus.json.id)).revisions[0]!.author, { kind: 'pieces-app', name: 'curl/8' });

  // The published client: its update never sends If-Match and works as before.
  const sdk = new Configuration({ basePath: t.url });
  const fetched = await new AssetApi(sdk).assetSnapshot({ asset: own.json.id });
  const renamed = await new AssetApi(sdk).assetUpdate({ asset: { ...fetched, name: 'renamed by sdk' } });
  assert.equal(renamed.name, 'renamed by sdk');
  const list = await revisionsOf(own.json.id);
  assert.equal(list.revisions[0]!.author.kind, 'pieces-app');
  await new AssetsApi(sdk).assetsDeleteAsset({ asset: own.json.id });
});

test('the connector\'s save is by the connector, named by its application', async () => {
  const app = (await call('POST', '/connect', { body: { application: { name: 'VS_CODE', version: '1', platform: 'LINUX' } } })).json.application.id;
  const saved = await fetch(`${t.url}/${app}/reaction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ save: true, seed: { asset: { format: { fragment: { string: { raw: 'function savedByConnector(a, b) {\n  return a * b + 42;\n}\n' } } } } } }),
  });
  const id = await saved.text();
  assert.equal(saved.status, 200);
  assert.deepEqual((await revisionsOf(id)).revisions[0]!.author, { kind: 'connector', name: 'VS_CODE' });
});

test('an import\'s revisions are by the import, named by the file', async () => {
  const reply = await fetch(`${t.url}/satchel/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ files: [{ name: '/home/me/snippets/python.json', content: JSON.stringify({ Greet: { prefix: 'greet', body: 'print("imported greeting")', description: 'Says hi' } }) }] }),
  });
  assert.ok((await reply.text()).includes('"summary"'));
  const id = t.core.assets.list().find((asset) => asset.name === 'Greet')!.id;
  const revision = (await revisionsOf(id)).revisions[0]!;
  assert.deepEqual(revision.author, { kind: 'import', name: 'python.json' });
  assert.equal((await call<RevisionReply>('GET', `/satchel/assets/${id}/revisions/${revision.id}`)).json.description, 'Says hi');
});

test('an MCP client\'s saves are by the name it gave in initialize; a client without the session id is "MCP client"', async () => {
  const client = await connectMcp(t.url, 'Claude Code');
  try {
    assert.ok(client.transport?.sessionId, 'initialize was answered with a session id');
    const result = await callTool(client, 'save_snippet', { content: 'const savedByAgent = () => 42;\n', name: 'agent save' });
    const id = (result.structuredContent as { id: string }).id;
    assert.deepEqual((await revisionsOf(id)).revisions[0]!.author, { kind: 'mcp', name: 'Claude Code' });
  } finally {
    await client.close();
  }
  // A bare POST with no session id (a client that ignores the header, or a host that restarted).
  const reply = await call('POST', '/mcp', {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_snippet', arguments: { content: 'const anonymousAgent = 1;\n' } } },
    headers: { accept: 'application/json, text/event-stream', 'mcp-session-id': 'forgotten' },
  });
  assert.equal(reply.status, 200);
  const id = reply.json.result.structuredContent.id as string;
  assert.deepEqual((await revisionsOf(id)).revisions[0]!.author, { kind: 'mcp', name: 'MCP client' });
});
