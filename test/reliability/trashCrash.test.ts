/**
 * The trash survives crashes: a host process under a stream of deletes (through the interface) and
 * restores (POST /satchel/trash/{id}/restore) of assets and of conversations with messages is killed
 * with SIGKILL at random moments. After every restart each record whose last move was acknowledged
 * is where it was acknowledged to be (live, or in the trash and nowhere else), whole: an asset's
 * content, name and tags, a conversation's messages, the revision its acknowledged restore made. A
 * move in flight at the kill left the record wholly in one place or wholly in the other, never in
 * both or in neither.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { assertIntegrity, figures, raw } from './support.ts';
import { killRounds } from './killRounds.ts';
import { createAsset } from './writes.ts';

const KILLS = Number(process.env.SATCHEL_TRASH_CRASH_KILLS ?? 10);
const WORKERS = 4;
const PER_WORKER = 4;
const JSON_HEADERS = { 'content-type': 'application/json' };

type Place = 'live' | 'trash';

interface Tracked {
  readonly kind: 'asset' | 'conversation';
  readonly id: string;
  readonly worker: number;
  /** What it holds: an asset's content, or a conversation's messages in order. */
  readonly content: string;
  readonly tag: string | undefined;
  /** Where its last acknowledged move left it. */
  place: Place;
  /** Where a move in flight at the kill would leave it. */
  moving: Place | undefined;
  /** Revisions its acknowledged restores made (an asset's). */
  readonly restores: string[];
}

interface Tally {
  moves: number;
  inFlight: number;
  checked: number;
}

async function post(port: number, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const reply = await raw(port, { method: 'POST', path, headers: JSON_HEADERS, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), timeoutMs: 15_000 });
  return { status: reply.status, json: reply.json, text: reply.text };
}

async function get(port: number, path: string): Promise<{ status: number; json: any; text: string }> {
  const reply = await raw(port, { path, timeoutMs: 30_000 });
  return { status: reply.status, json: reply.json, text: reply.text };
}

async function createRecords(port: number, worker: number): Promise<Tracked[]> {
  const made: Tracked[] = [];
  for (let i = 0; i < PER_WORKER; i++) {
    const padding = randomInt(4) === 0 ? '// padding that keeps the delete busy\n'.repeat(4_000) : '';
    const content = `// trash crash w${worker} a${i} ${randomInt(1e9)}\nexport const value${i} = ${i};\n${padding}`;
    const id = await createAsset(port, content, `trash crash w${worker} a${i}`);
    const tag = `crash-w${worker}-a${i}`;
    const tagged = await post(port, '/tags/create', { text: tag, asset: id });
    assert.equal(tagged.status, 200, tagged.text);
    made.push({ kind: 'asset', id, worker, content, tag, place: 'live', moving: undefined, restores: [] });
  }
  const messages = [`w${worker} question ${randomInt(1e9)}`, `w${worker} answer ${randomInt(1e9)}`];
  const created = await post(port, '/conversations/create', {
    type: 'COPILOT',
    name: `trash crash w${worker}`,
    messages: messages.map((text, i) => ({ role: i === 0 ? 'USER' : 'ASSISTANT', fragment: { string: { raw: text } } })),
  });
  assert.equal(created.status, 200, created.text);
  made.push({ kind: 'conversation', id: created.json.id, worker, content: messages.join('\n'), tag: undefined, place: 'live', moving: undefined, restores: [] });
  return made;
}

async function runWorker(port: number, records: Tracked[], stop: { now: boolean }, tally: Tally): Promise<void> {
  while (!stop.now) {
    const record = records[randomInt(records.length)]!;
    const to: Place = record.place === 'live' ? 'trash' : 'live';
    const path =
      to === 'live' ? `/satchel/trash/${record.id}/restore` : record.kind === 'asset' ? `/assets/${record.id}/delete` : `/conversations/${record.id}/delete`;
    record.moving = to;
    try {
      const reply = await post(port, path);
      assert.ok(reply.status === 200 || reply.status === 204, `${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
      if (to === 'live' && record.kind === 'asset') record.restores.push(reply.json.revision);
      record.place = to;
      record.moving = undefined;
      tally.moves++;
    } catch (error) {
      // Only the kill may interrupt a move; any other failure is a real error.
      if (!stop.now) throw error;
      tally.inFlight++;
      return;
    }
  }
}

/** Where the host has the record now, checking it is whole there; fails if it is in both places or in neither. */
async function placeOf(port: number, record: Tracked): Promise<Place> {
  const live = await get(port, record.kind === 'asset' ? `/asset/${record.id}` : `/conversation/${record.id}`);
  const trashed = await get(port, `/satchel/trash/${record.id}`);
  assert.ok([200, 404].includes(live.status) && [200, 404].includes(trashed.status), `${record.id}: ${live.status} ${trashed.status}`);
  assert.notEqual(live.status === 200, trashed.status === 200, `${record.kind} ${record.id} is ${live.status === 200 ? 'both live and in the trash' : 'neither live nor in the trash: lost'}`);
  if (trashed.status === 200) {
    assert.equal(trashed.json.kind, record.kind);
    if (record.kind === 'conversation') assert.equal(trashed.json.messages, 2, `${record.id} went to the trash without its messages`);
    return 'trash';
  }
  if (record.kind === 'asset') {
    const text = live.json.formats.iterable[0].fragment.string.raw;
    assert.equal(text, record.content, `${record.id} came back with other content`);
    assert.deepEqual(live.json.tags.iterable.map((tag: { text: string }) => tag.text), [record.tag], `${record.id} came back without its tag`);
    const history = await get(port, `/satchel/assets/${record.id}/revisions`);
    const ids = new Set(history.json.revisions.map((revision: { id: string }) => revision.id));
    for (const revision of record.restores) assert.ok(ids.has(revision), `${record.id} lost the revision of an acknowledged restore`);
  } else {
    const messages = await get(port, `/conversation/${record.id}/messages?transferables=true`);
    const texts = Object.entries(messages.json.indices as Record<string, number>)
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => messages.json.iterable.find((m: { id: string }) => m.id === id).fragment.string.raw);
    assert.equal(texts.join('\n'), record.content, `${record.id} came back without its messages`);
  }
  return 'live';
}

async function verify(port: number, records: Tracked[], tally: Tally): Promise<void> {
  for (const record of records) {
    const place = await placeOf(port, record);
    if (record.moving === undefined) assert.equal(place, record.place, `${record.kind} ${record.id}: acknowledged ${record.place}, found ${place}`);
    record.place = place;
    record.moving = undefined;
    tally.checked++;
  }
}

test(`trash: a host killed with SIGKILL ${KILLS} times under deletes and restores loses nothing acknowledged`, async (t) => {
  const records: Tracked[] = [];
  const tally: Tally = { moves: 0, inFlight: 0, checked: 0 };
  const kills = await killRounds(t, KILLS, {
    async verify(port, file) {
      if (records.length === 0) for (let w = 0; w < WORKERS; w++) records.push(...(await createRecords(port, w)));
      await verify(port, records, tally);
      assertIntegrity(file, (db) => {
        const trashed = (db.prepare('SELECT count(*) AS n FROM trash').get() as { n: number }).n;
        assert.equal(trashed, records.filter((record) => record.place === 'trash').length, 'the trash holds exactly the records found there');
      });
    },
    async write(port, stop) {
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(port, records.filter((record) => record.worker === w), stop, tally)));
    },
  });
  figures('trash-crash', { kills, moves: tally.moves, inFlightAtKill: tally.inFlight, recordsChecked: tally.checked, lost: 0, doubled: 0 });
  assert.equal(kills, KILLS);
  assert.ok(tally.moves > KILLS * 5, `only ${tally.moves} moves were acknowledged`);
});
