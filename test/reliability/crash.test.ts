/**
 * Crash durability: a host process under a stream of writes (asset creates, renames, deletes, tag
 * associations and disassociations) is killed with SIGKILL at random moments, many times. After
 * every restart each acknowledged write is there exactly once, a write that was in flight is
 * either wholly there or wholly absent, the database passes its integrity checks, and search
 * (by query and by tag) agrees with the records.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { assertIntegrity, figures, raw } from './support.ts';
import { killRounds } from './killRounds.ts';
import { createAsset } from './writes.ts';

const KILLS = Number(process.env.SATCHEL_CRASH_KILLS ?? 20);
const WORKERS = 4;
const TAGS = ['crashtagalpha', 'crashtagbravo', 'crashtagcharlie'];

type Maybe = 'yes' | 'no' | 'maybe';

/** What the test knows about one asset it wrote, identified by the unique word in its content. */
interface Expected {
  readonly marker: string;
  readonly worker: number;
  id: string | undefined;
  exists: Maybe;
  /** Names it may have now: one when known, two while a rename's outcome is unknown. */
  names: Set<string>;
  readonly tags: Map<string, Maybe>;
}

interface Tally {
  acknowledged: number;
  unknown: number;
  checked: number;
}

const letters = (n: number): string => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');

/** Unique, search-friendly words: `zq` and twelve letters. */
const newMarker = (): string => `zq${letters(12)}`;

const JSON_HEADERS = { 'content-type': 'application/json' };

async function post(port: number, path: string, body?: unknown): Promise<number> {
  const reply = await raw(port, {
    method: 'POST',
    path,
    ...(body !== undefined ? { headers: JSON_HEADERS, body: JSON.stringify(body) } : {}),
    timeoutMs: 10_000,
  });
  if (reply.status >= 300) throw new Error(`${path} answered ${reply.status} ${reply.text.slice(0, 200)}`);
  return reply.status;
}

/** One worker: sequential writes to its own assets until `stop` is set; the write in flight at the kill is "unknown". */
async function runWorker(worker: number, port: number, model: Expected[], tagIds: Map<string, string>, stop: { now: boolean }, tally: Tally): Promise<void> {
  while (!stop.now) {
    const mine = model.filter((e) => e.worker === worker && e.exists === 'yes' && e.id !== undefined);
    const roll = randomInt(100);
    let apply: () => void;
    let undoUnknown: () => void;
    let request: () => Promise<unknown>;
    if (mine.length < 2 || roll < 35) {
      const marker = newMarker();
      const name = `asset ${marker} v0`;
      const expected: Expected = { marker, worker, id: undefined, exists: 'maybe', names: new Set([name]), tags: new Map() };
      model.push(expected);
      let id: string | undefined;
      request = async () => (id = await createAsset(port, `const ${marker} = ${randomInt(1000)};\nexport default ${marker};\n`, name));
      apply = () => {
        expected.id = id;
        expected.exists = 'yes';
      };
      undoUnknown = () => {};
    } else {
      const target = mine[randomInt(mine.length)]!;
      const id = target.id!;
      if (roll < 60) {
        const name = `asset ${target.marker} v${randomInt(1_000_000)}`;
        request = () => post(port, '/asset/update', { id, name });
        apply = () => (target.names = new Set([name]));
        undoUnknown = () => target.names.add(name);
      } else if (roll < 75) {
        request = () => post(port, `/assets/${id}/delete`);
        apply = () => (target.exists = 'no');
        undoUnknown = () => (target.exists = 'maybe');
      } else {
        const tag = TAGS[randomInt(TAGS.length)]!;
        const associate = roll < 90;
        request = () => post(port, `/asset/${id}/tags/${associate ? 'associate' : 'disassociate'}/${tagIds.get(tag)}`);
        apply = () => target.tags.set(tag, associate ? 'yes' : 'no');
        undoUnknown = () => {
          if (target.tags.get(tag) !== (associate ? 'yes' : 'no')) target.tags.set(tag, 'maybe');
        };
      }
    }
    try {
      await request();
      apply();
      tally.acknowledged++;
    } catch (error) {
      // Only the kill may interrupt a write; any other failure is a real error.
      if (!stop.now) throw error;
      undoUnknown();
      tally.unknown++;
      return;
    }
  }
}

interface ListedAsset {
  readonly id: string;
  readonly name?: string;
  readonly formats?: { iterable?: Array<{ fragment?: { string?: { raw?: string } } }> };
  readonly tags?: { iterable?: Array<{ id: string; text: string }> };
}

/** Checks the restarted host against the model and resolves every "maybe" to what is now there. */
async function verify(port: number, model: Expected[], tally: Tally): Promise<void> {
  const listReply = await raw(port, { path: '/assets?transferables=true', timeoutMs: 30_000 });
  assert.equal(listReply.status, 200);
  const listed = (listReply.json as { iterable: ListedAsset[] }).iterable;
  const ids = new Set(listed.map((a) => a.id));
  assert.equal(ids.size, listed.length, 'an asset is listed twice');
  const identifiers = await raw(port, { path: '/assets/identifiers' });
  const identifierIds = new Set((identifiers.json as { iterable: Array<{ id: string }> }).iterable.map((r) => r.id));
  assert.deepEqual([...identifierIds].sort(), [...ids].sort(), 'the identifiers snapshot disagrees with the asset snapshot');

  const byMarker = new Map<string, ListedAsset[]>();
  for (const asset of listed) {
    const content = asset.formats?.iterable?.[0]?.fragment?.string?.raw ?? '';
    const marker = /zq[a-z]{12}/.exec(content)?.[0];
    assert.ok(marker, `asset ${asset.id} has lost its content: ${JSON.stringify(asset).slice(0, 300)}`);
    byMarker.set(marker, [...(byMarker.get(marker) ?? []), asset]);
  }
  const known = new Set(model.map((e) => e.marker));
  for (const marker of byMarker.keys()) assert.ok(known.has(marker), `an asset nobody wrote appeared: ${marker}`);

  for (const expected of model) {
    if (expected.exists === 'no' && expected.id === undefined) continue;
    const found = byMarker.get(expected.marker) ?? [];
    assert.ok(found.length <= 1, `${expected.marker} is stored ${found.length} times`);
    const asset = found[0];
    if (expected.exists === 'yes') assert.ok(asset, `acknowledged asset ${expected.marker} (${expected.id}) was lost`);
    if (expected.exists === 'no') assert.equal(asset, undefined, `deleted asset ${expected.marker} came back`);
    if (!asset) {
      expected.exists = 'no';
      continue;
    }
    if (expected.id !== undefined) assert.equal(asset.id, expected.id, `${expected.marker} changed id`);
    expected.id = asset.id;
    expected.exists = 'yes';
    assert.ok(expected.names.has(asset.name ?? ''), `${expected.marker} is named ${JSON.stringify(asset.name)}, expected one of ${[...expected.names].join(' | ')}`);
    expected.names = new Set([asset.name!]);
    const tagTexts = new Set((asset.tags?.iterable ?? []).map((t) => t.text));
    for (const tag of TAGS) {
      const state = expected.tags.get(tag) ?? 'no';
      const has = tagTexts.has(tag);
      if (state === 'yes') assert.ok(has, `${expected.marker} lost its acknowledged tag ${tag}`);
      if (state === 'no') assert.ok(!has, `${expected.marker} has tag ${tag} that was removed or never added`);
      expected.tags.set(tag, has ? 'yes' : 'no');
    }
    tally.checked++;
  }

  // The search index agrees with the records: every tag search returns exactly the tagged assets …
  for (const tag of TAGS) {
    const reply = await raw(port, { path: `/assets/search?searchable_tags=${tag}&transferables=false` });
    assert.equal(reply.status, 200);
    const got = new Set((reply.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier));
    const want = new Set(model.filter((e) => e.exists === 'yes' && e.tags.get(tag) === 'yes').map((e) => e.id!));
    assert.deepEqual([...got].sort(), [...want].sort(), `search by tag ${tag} disagrees with the records`);
  }
  // … a query for a live asset's unique word finds it, and one for a deleted asset's finds nothing.
  const live = model.filter((e) => e.exists === 'yes');
  const gone = model.filter((e) => e.exists === 'no' && e.id !== undefined);
  const sample = [...live.sort(() => Math.random() - 0.5).slice(0, 6), ...gone.slice(-6)];
  for (const expected of sample) {
    const reply = await raw(port, { path: `/assets/search?query=${expected.marker}&transferables=false` });
    assert.equal(reply.status, 200);
    const hits = (reply.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier);
    for (const hit of hits) assert.ok(ids.has(hit), `search returned ${hit}, which is not stored`);
    if (expected.exists === 'yes') assert.ok(hits.includes(expected.id!), `search for ${expected.marker} misses its asset`);
    else assert.ok(!hits.includes(expected.id!), `search for deleted ${expected.marker} still finds it`);
  }
}

function integrityCheck(file: string): void {
  assertIntegrity(file, (db) => {
    const orphans = db.prepare('SELECT COUNT(*) AS n FROM asset_formats WHERE asset_id NOT IN (SELECT id FROM assets)').get() as { n: number };
    assert.equal(orphans.n, 0, 'formats of deleted assets remain');
    const dangling = db
      .prepare(
        "SELECT COUNT(*) AS n FROM links WHERE (a_kind = 'asset' AND a_id NOT IN (SELECT id FROM assets)) OR (b_kind = 'asset' AND b_id NOT IN (SELECT id FROM assets))",
      )
      .get() as { n: number };
    assert.equal(dangling.n, 0, 'links to deleted assets remain');
  });
}

test(`a host killed with SIGKILL ${KILLS} times under writes loses no acknowledged write and shows no half-done one`, async (t) => {
  const model: Expected[] = [];
  const tally: Tally = { acknowledged: 0, unknown: 0, checked: 0 };
  const tagIds = new Map<string, string>();
  const kills = await killRounds(t, KILLS, {
    async verify(port, file) {
      await verify(port, model, tally);
      integrityCheck(file);
    },
    async prepare(port) {
      if (tagIds.size > 0) return;
      for (const text of TAGS) {
        const reply = await raw(port, { method: 'POST', path: '/tags/create', headers: JSON_HEADERS, body: JSON.stringify({ text }) });
        assert.equal(reply.status, 200, reply.text);
        tagIds.set(text, (reply.json as { id: string }).id);
      }
    },
    async write(port, stop) {
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(w, port, model, tagIds, stop, tally)));
    },
  });
  const live = model.filter((e) => e.exists === 'yes').length;
  figures('crash', { kills, writes: tally.acknowledged, inFlightAtKill: tally.unknown, assetsChecked: tally.checked, live, lost: 0, duplicated: 0, halfVisible: 0 });
  assert.equal(kills, KILLS);
  assert.ok(tally.acknowledged > KILLS * 5, `only ${tally.acknowledged} writes were acknowledged`);
});
