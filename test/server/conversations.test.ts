/**
 * Bad input on every route of the conversations area: each answers a 4xx JSON error and leaves
 * the store exactly as it was. Also the identifiers stream over a WebSocket.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { startTestServer, request, errorCode, type TestServer } from '../support/helpers.ts';

let t: TestServer;
let conversation = '';
let emptyConversation = '';
let messageId = '';

before(async () => {
  t = await startTestServer();
  const created = await request(t.url, 'POST', '/conversations/create', {
    body: {
      type: 'COPILOT',
      messages: [
        { role: 'USER', fragment: { string: { raw: 'Why does my Docker build ignore the .dockerignore file?' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'Put the .dockerignore file next to the build context root, not next to the Dockerfile.' } } },
      ],
    },
  });
  assert.equal(created.status, 200);
  conversation = created.json.id;
  messageId = created.json.messages.iterable[0].id;
  emptyConversation = (await request(t.url, 'POST', '/conversations/create', { body: { type: 'UNKNOWN' } })).json.id;
});
after(() => t.close());

/** A digest of everything the area stores: records, links and messages. */
function digest(): string {
  const db = t.core.context.database;
  const rows = [
    db.prepare('SELECT kind, id, data FROM records ORDER BY kind, id').all(),
    db.prepare('SELECT a_kind, a_id, b_kind, b_id FROM links ORDER BY a_kind, a_id, b_kind, b_id').all(),
    db.prepare('SELECT id, conversation, data FROM conversation_messages ORDER BY id').all(),
  ];
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

interface Case {
  readonly method: 'GET' | 'POST';
  readonly path: () => string;
  readonly body?: unknown;
  readonly status: number;
}

const NOPE = '00000000-0000-4000-8000-000000000000';
const associations = [
  ['anchors', 'associate'],
  ['anchors', 'disassociate'],
  ['anchors', 'delete'],
  ['assets', 'associate'],
  ['assets', 'disassociate'],
  ['assets', 'delete'],
  ['websites', 'associate'],
  ['websites', 'disassociate'],
  ['workstream_summaries', 'associate'],
  ['workstream_summaries', 'disassociate'],
  ['grounding/messages', 'associate'],
  ['grounding/messages', 'disassociate'],
  ['grounding/temporal_range/workstreams', 'associate'],
  ['grounding/temporal_range/workstreams', 'disassociate'],
] as const;

const cases: Case[] = [
  // conversations
  { method: 'POST', path: () => '/conversations/create', body: '{"type":', status: 400 },
  { method: 'POST', path: () => '/conversations/create', status: 400 },
  { method: 'POST', path: () => '/conversations/create', body: true, status: 400 },
  { method: 'POST', path: () => '/conversations/create', body: { type: 5 }, status: 400 },
  { method: 'POST', path: () => '/conversations/create', body: { type: 'CHAT' }, status: 400 },
  { method: 'POST', path: () => '/conversations/create', body: { type: 'COPILOT', messages: [{ role: 'USER' }] }, status: 400 },
  { method: 'POST', path: () => '/conversations/create', body: { type: 'COPILOT', name: ['x'] }, status: 400 },
  // A valid seed naming a missing asset: nothing of it may be written (one transaction).
  {
    method: 'POST',
    path: () => '/conversations/create',
    body: { type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'hi' } } }], assets: { iterable: [{ id: NOPE }] } },
    status: 404,
  },
  { method: 'GET', path: () => '/conversations?transferables=maybe', status: 400 },
  { method: 'POST', path: () => `/conversations/${NOPE}/delete`, status: 404 },
  // one conversation
  { method: 'GET', path: () => `/conversation/${NOPE}`, status: 404 },
  { method: 'GET', path: () => `/conversation/${conversation}?transferables=yes`, status: 400 },
  { method: 'GET', path: () => `/conversation/${NOPE}/messages`, status: 404 },
  { method: 'POST', path: () => `/conversation/${NOPE}/rename`, status: 404 },
  { method: 'POST', path: () => `/conversation/${NOPE}/summarize`, status: 404 },
  { method: 'POST', path: () => `/conversation/${conversation}/summarize`, body: { messages: 5 }, status: 400 },
  { method: 'POST', path: () => `/conversation/${conversation}/summarize`, body: '[1,', status: 400 },
  { method: 'POST', path: () => `/conversation/${conversation}/summarize`, body: { messages: { iterable: [{ id: NOPE }] } }, status: 404 },
  { method: 'POST', path: () => `/conversation/${emptyConversation}/summarize`, status: 400 },
  { method: 'POST', path: () => `/conversation/${NOPE}/scores/increment`, body: { conversation: { reuse: true } }, status: 404 },
  { method: 'POST', path: () => `/conversation/${conversation}/scores/increment`, body: { conversation: { reuse: 'yes' } }, status: 400 },
  { method: 'POST', path: () => '/conversation/update', status: 400 },
  { method: 'POST', path: () => '/conversation/update', body: {}, status: 400 },
  { method: 'POST', path: () => '/conversation/update', body: '{', status: 400 },
  { method: 'POST', path: () => '/conversation/update', body: { id: NOPE, name: 'x' }, status: 404 },
  { method: 'POST', path: () => '/conversation/update', body: { id: conversation, name: 5 }, status: 400 },
  { method: 'POST', path: () => '/conversation/update', body: { id: conversation, favorited: 'true' }, status: 400 },
  // associations: unknown conversation, unknown target
  ...associations.flatMap(([segment, verb]): Case[] => [
    { method: 'POST', path: () => `/conversation/${NOPE}/${segment}/${verb}/${messageId}`, status: 404 },
    { method: 'POST', path: () => `/conversation/${conversation}/${segment}/${verb}/${NOPE}`, status: 404 },
  ]),
  // messages
  { method: 'POST', path: () => '/messages/create', status: 400 },
  { method: 'POST', path: () => '/messages/create', body: { role: 'USER', fragment: { string: { raw: 'x' } } }, status: 400 },
  { method: 'POST', path: () => '/messages/create', body: { role: 'BOT', fragment: {}, conversation: { id: conversation } }, status: 400 },
  { method: 'POST', path: () => '/messages/create', body: { role: 'USER', conversation: { id: conversation } }, status: 400 },
  { method: 'POST', path: () => '/messages/create', body: { role: 'USER', fragment: { string: { raw: 'x' } }, conversation: { id: NOPE } }, status: 404 },
  { method: 'POST', path: () => '/messages/create', body: { role: 'USER', fragment: { string: { raw: 7 } }, conversation: { id: conversation } }, status: 400 },
  { method: 'GET', path: () => `/message/${NOPE}`, status: 404 },
  { method: 'POST', path: () => `/messages/${NOPE}/delete`, status: 404 },
  // annotations, anchors, ranges, workstream summaries
  { method: 'GET', path: () => '/annotations?annotation_type_filter=BOGUS', status: 400 },
  { method: 'GET', path: () => `/annotation/${NOPE}`, status: 404 },
  { method: 'POST', path: () => `/annotations/${NOPE}/delete`, status: 404 },
  { method: 'POST', path: () => '/anchors/create', body: { type: 'FILE' }, status: 400 },
  { method: 'POST', path: () => '/anchors/create', body: { type: 'LINK', fullpath: '/x' }, status: 400 },
  { method: 'POST', path: () => '/anchors/create', body: { type: 'FILE', fullpath: '/x', conversation: NOPE }, status: 404 },
  { method: 'GET', path: () => `/anchor/${NOPE}`, status: 404 },
  { method: 'POST', path: () => `/anchors/${NOPE}/delete`, status: 404 },
  { method: 'POST', path: () => '/ranges/create', body: { from: { value: 'yesterday' } }, status: 400 },
  { method: 'POST', path: () => '/ranges/create', body: { summary: { id: NOPE } }, status: 404 },
  { method: 'POST', path: () => '/ranges/create', body: { conversation: { reference: { id: NOPE } } }, status: 404 },
  { method: 'GET', path: () => `/range/${NOPE}`, status: 404 },
  { method: 'POST', path: () => `/ranges/${NOPE}/delete`, status: 404 },
  { method: 'POST', path: () => '/workstream_summaries/create', body: { name: 'x' }, status: 400 },
  { method: 'POST', path: () => '/workstream_summaries/create', body: { name: 'x', model: { id: 'm' }, assets: { iterable: [{ id: NOPE }] } }, status: 404 },
  { method: 'GET', path: () => `/workstream_summary/${NOPE}`, status: 404 },
  { method: 'POST', path: () => `/workstream_summaries/${NOPE}/delete`, status: 404 },
];

test('every bad request answers a 4xx JSON error and leaves the store unchanged', async () => {
  const before = digest();
  for (const c of cases) {
    const path = c.path();
    const reply = await request(t.url, c.method, path, c.body === undefined ? {} : { body: c.body });
    const label = `${c.method} ${path} ${JSON.stringify(c.body) ?? ''}`;
    assert.equal(reply.status, c.status, `${label} → ${reply.status} ${reply.text.slice(0, 200)}`);
    assert.match(reply.type, /application\/json/, label);
    assert.equal(typeof errorCode(reply), 'string', label);
    assert.equal(digest(), before, `${label} changed the store`);
  }
});

test('the identifiers stream sends all ids on connect, then each change', async () => {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/conversations/stream/identifiers`);
  const frames: any[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = async (predicate: (frame: any) => boolean): Promise<any> => {
    for (;;) {
      const found = frames.find(predicate);
      if (found) return found;
      await new Promise<void>((resolve, reject) => {
        waiters.push(resolve);
        setTimeout(() => reject(new Error('no matching frame within 3 s')), 3000).unref();
      });
    }
  };
  try {
    const first = await next(() => true);
    const initial = first.iterable.map((item: any) => item.conversation.id);
    assert.ok(initial.includes(conversation) && initial.includes(emptyConversation));

    const created = await request(t.url, 'POST', '/conversations/create', { body: { type: 'COPILOT', name: 'streamed' } });
    await next((frame) => frame.iterable.some((item: any) => item.conversation.id === created.json.id && !item.deleted));

    const deleted = await request(t.url, 'POST', `/conversations/${created.json.id}/delete`);
    assert.equal(deleted.status, 204);
    await next((frame) => frame.iterable.some((item: any) => item.conversation.id === created.json.id && item.deleted === true));
  } finally {
    socket.close();
  }
});
