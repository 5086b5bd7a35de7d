/**
 * Revisions survive crashes: a host process under a stream of conditional history writes (content
 * edits, some of them large, renames and restores, each based on the revision the worker last
 * saw) is killed with SIGKILL at random moments. After every restart each acknowledged revision is
 * listed with exactly the content it was acknowledged with, every revision's content is readable
 * and is one the test wrote, the asset's content is its current revision's, and a write in flight
 * at the kill is wholly there (as the current revision) or wholly absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { assertIntegrity, figures, raw } from './support.ts';
import { killRounds } from './killRounds.ts';
import { createAsset } from './writes.ts';

const KILLS = Number(process.env.SATCHEL_HISTORY_CRASH_KILLS ?? 10);
const WORKERS = 4;
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Tracked {
  readonly id: string;
  readonly worker: number;
  /** Every content sent for it, acknowledged or not. */
  readonly sent: Set<string>;
  /** Acknowledged revisions and their content. */
  readonly acknowledged: Map<string, string>;
  /** The revision the next write is based on; undefined after a write whose outcome is unknown (read again after the restart). */
  head: string | undefined;
  /** The content the asset has after its last acknowledged write. */
  current: string;
  /** The content the write in flight at the kill would leave, if one was. */
  inFlight: string | undefined;
  version: number;
}

interface Tally {
  acknowledged: number;
  unknown: number;
  revisionsChecked: number;
}

/** Mostly small contents, sometimes 256 KiB ones: a large write keeps its commit (and its kept content) busy longer. */
function contentFor(asset: Tracked): string {
  asset.version++;
  const head = `// ${asset.id} v${asset.version} ${randomInt(1e9)}\n`;
  return randomInt(8) === 0 ? head + 'const padding = "0123456789abcdef";\n'.repeat(7_000) : `${head}export const value = ${asset.version};\n`;
}

async function post(port: number, path: string, body: unknown, revision: string | undefined): Promise<{ status: number; json: any }> {
  const reply = await raw(port, {
    method: 'POST',
    path,
    headers: { ...JSON_HEADERS, ...(revision !== undefined ? { 'if-match': `"${revision}"` } : {}) },
    body: JSON.stringify(body),
    timeoutMs: 15_000,
  });
  return { status: reply.status, json: reply.json };
}

async function runWorker(worker: number, port: number, assets: Tracked[], stop: { now: boolean }, tally: Tally): Promise<void> {
  const mine = assets.filter((asset) => asset.worker === worker);
  while (!stop.now) {
    const asset = mine[randomInt(mine.length)]!;
    const roll = randomInt(100);
    const acknowledged = [...asset.acknowledged.entries()];
    let content: string;
    let request: () => Promise<{ status: number; json: any }>;
    let revisionOf: (json: any) => string;
    if (roll < 70 || acknowledged.length < 2) {
      content = contentFor(asset);
      const body = { content, expectedRevision: asset.head };
      request = () => post(port, `/satchel/assets/${asset.id}/edit`, body, undefined);
      revisionOf = (json) => json.revision;
    } else if (roll < 85) {
      request = () => post(port, '/asset/update', { id: asset.id, name: `renamed ${randomInt(1e6)}` }, asset.head);
      content = asset.current;
      // The update answers with the asset; its revision is the ETag, read back from the list.
      revisionOf = () => '';
    } else {
      const [revision, old] = acknowledged[randomInt(acknowledged.length)]!;
      content = old;
      request = () => post(port, `/satchel/assets/${asset.id}/revisions/${revision}/restore`, {}, asset.head);
      revisionOf = (json) => json.id;
    }
    asset.sent.add(content);
    asset.inFlight = content;
    try {
      const reply = await request();
      assert.equal(reply.status, 200, `a write answered ${reply.status}: ${JSON.stringify(reply.json).slice(0, 300)}`);
      let revision = revisionOf(reply.json);
      if (revision === '') {
        const list = await raw(port, { path: `/satchel/assets/${asset.id}/revisions`, timeoutMs: 15_000 });
        revision = (list.json as { current: string }).current;
      }
      asset.acknowledged.set(revision, content);
      asset.head = revision;
      asset.current = content;
      asset.inFlight = undefined;
      tally.acknowledged++;
    } catch (error) {
      // Only the kill may interrupt a write; any other failure is a real error.
      if (!stop.now) throw error;
      asset.head = undefined;
      tally.unknown++;
      return;
    }
  }
}

async function verify(port: number, assets: Tracked[], tally: Tally): Promise<void> {
  for (const asset of assets) {
    const listed = await raw(port, { path: `/satchel/assets/${asset.id}/revisions`, timeoutMs: 30_000 });
    assert.equal(listed.status, 200, listed.text.slice(0, 300));
    const list = listed.json as { current: string; revisions: Array<{ id: string }> };
    const ids = list.revisions.map((r) => r.id);
    for (const revision of asset.acknowledged.keys()) assert.ok(ids.includes(revision), `acknowledged revision ${revision} of ${asset.id} was lost`);
    for (const id of ids) {
      const reply = await raw(port, { path: `/satchel/assets/${asset.id}/revisions/${id}`, timeoutMs: 30_000 });
      assert.equal(reply.status, 200, `revision ${id} of ${asset.id} cannot be read: ${reply.text.slice(0, 300)}`);
      const text = (reply.json as { content: { text: string } }).content.text;
      assert.ok(asset.sent.has(text), `revision ${id} of ${asset.id} holds content nobody wrote: ${text.slice(0, 80)}`);
      const acknowledged = asset.acknowledged.get(id);
      if (acknowledged !== undefined) assert.equal(text, acknowledged, `revision ${id} of ${asset.id} changed its content`);
      tally.revisionsChecked++;
    }
    const current = await raw(port, { path: `/asset/${asset.id}`, timeoutMs: 30_000 });
    const stored = (current.json as { formats: { iterable: Array<{ fragment: { string: { raw: string } } }> } }).formats.iterable[0]!.fragment.string.raw;
    const head = await raw(port, { path: `/satchel/assets/${asset.id}/revisions/${list.current}`, timeoutMs: 30_000 });
    assert.equal(stored, (head.json as { content: { text: string } }).content.text, `${asset.id}'s content is not its current revision's`);
    assert.equal(current.headers['etag'], `"${list.current}"`);
    // The write in flight at the kill is wholly there (one revision nobody acknowledged, the current
    // one, with that write's content) or wholly absent (none, and the last acknowledged content).
    const unknown = ids.filter((id) => !asset.acknowledged.has(id));
    if (asset.inFlight === undefined) assert.deepEqual(unknown, [], `${asset.id} has revisions no write made`);
    else if (unknown.length === 0) assert.equal(stored, asset.current, `${asset.id} lost its last acknowledged content`);
    else {
      assert.deepEqual(unknown, [list.current], `${asset.id}: the write in flight left more than its one revision, or not as the current one`);
      assert.equal(stored, asset.inFlight, `${asset.id}: the write in flight is only half there`);
      asset.acknowledged.set(list.current, stored);
    }
    asset.current = stored;
    asset.head = list.current;
    asset.inFlight = undefined;
  }
}

test(`revisions: a host killed with SIGKILL ${KILLS} times under history writes loses no acknowledged revision`, async (t) => {
  const assets: Tracked[] = [];
  const tally: Tally = { acknowledged: 0, unknown: 0, revisionsChecked: 0 };
  const kills = await killRounds(t, KILLS, {
    async verify(port, file) {
      if (assets.length === 0) {
        for (let i = 0; i < WORKERS * 3; i++) {
          const text = `// history crash asset ${i}\nexport const value = 0;\n`;
          const id = await createAsset(port, text, `history ${i}`);
          const current = ((await raw(port, { path: `/satchel/assets/${id}/revisions` })).json as { current: string }).current;
          assets.push({ id, worker: i % WORKERS, sent: new Set([text]), acknowledged: new Map([[current, text]]), head: current, current: text, inFlight: undefined, version: 0 });
        }
      }
      await verify(port, assets, tally);
      assertIntegrity(file);
    },
    async write(port, stop) {
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(w, port, assets, stop, tally)));
    },
  });
  figures('history-crash', { kills, writes: tally.acknowledged, inFlightAtKill: tally.unknown, revisionsChecked: tally.revisionsChecked, lost: 0, foreign: 0 });
  assert.equal(kills, KILLS);
  assert.ok(tally.acknowledged > KILLS * 5, `only ${tally.acknowledged} writes were acknowledged`);
});
