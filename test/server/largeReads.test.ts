/**
 * Reads of one whole large snippet or revision (GET /asset/{id}, a revision's text): each starts on
 * a turn of its own through one line of reads, and a reply holding a 4 Mi-character text is encoded
 * while it is sent, not stringified in one turn. 100 concurrent reads of a 4 MiB revision ran back
 * to back ahead of health (0.8–4.4 s); GET /asset/{id} of that snippet took 2.4–10 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_WRITE } from '../support/authors.ts';

const LINE = 'export const value = computeSomething(alpha, beta, gamma); // a line of a large file\n';
const TEXT = LINE.repeat(Math.floor((4 * 1024 * 1024) / LINE.length));

test('concurrent reads of a 4 MiB revision and snippet start one per turn of the event loop, and stream their JSON', { timeout: 120_000 }, async () => {
  const t = await startTestServer();
  let turn = 0;
  let ticking = true;
  const tick = (): void => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  try {
    const asset = await t.core.assets.writes.create(codeSeed(TEXT, 'large'), TEST_WRITE);
    t.core.assets.writes.edit(asset.id, { content: { text: `${TEXT}// edited\n` } }, TEST_WRITE);
    const first = t.core.history.list(asset.id).revisions.at(-1)!.id;
    const turns: number[] = [];
    const read = t.core.history.read.bind(t.core.history);
    t.core.history.read = (assetId, revisionId) => {
      turns.push(turn);
      return read(assetId, revisionId);
    };
    const snapshot = t.core.assets.get.bind(t.core.assets);
    t.core.assets.get = (id, options) => {
      turns.push(turn);
      return snapshot(id, options);
    };
    tick();
    const paths = Array.from({ length: 24 }, (_, i) => (i % 3 === 2 ? `/asset/${asset.id}` : `/satchel/assets/${asset.id}/revisions/${first}`));
    const replies = await Promise.all(
      paths.map(async (path) => {
        const reply = await fetch(`${t.url}${path}`);
        const body = (await reply.json()) as { content?: { text?: string }; id?: string };
        return { status: reply.status, length: reply.headers.get('content-length'), text: body.content?.text, id: body.id };
      }),
    );
    ticking = false;
    assert.equal(turns.length, paths.length);
    assert.equal(new Set(turns).size, turns.length, `reads started on turns ${turns.join(', ')}: two in one turn`);
    for (const [i, reply] of replies.entries()) {
      assert.equal(reply.status, 200);
      assert.equal(reply.length, null, 'streamed, not one string with its length');
      if (i % 3 === 2) assert.equal(reply.id, asset.id);
      else assert.equal(reply.text, TEXT, 'the first revision whole');
    }
  } finally {
    ticking = false;
    await t.close();
  }
});
