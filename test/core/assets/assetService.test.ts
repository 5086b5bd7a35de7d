import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import { NotFoundError, InvalidInputError, SearchUnspecifiedError } from '../../../src/core/errors.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

let s: AssetStore;
before(() => {
  s = openAssetStore();
});
after(() => s.close());

const rawOf = (asset: Asset): string | undefined => asset.formats.iterable[0]?.fragment?.string?.raw;

/** Names of the hits of a GET-style search, best first. */
function names(query: string, extra: { tags?: string[]; pseudo?: boolean } = {}): string[] {
  return s.assets
    .searches.search({ query, ...(extra.tags ? { tags: extra.tags } : {}) }, { transferables: false, pseudo: extra.pseudo ?? false })
    .iterable.map((hit) => hit.asset?.name ?? '?');
}

test('create classifies, names, times and stores the content with one original format', async () => {
  const asset = await s.assets.writes.create(codeSeed('function greetUser(name) {\n  return `hi ${name}`;\n}\n'), { author: TEST_AUTHOR });
  assert.equal(asset.name, 'greetUser');
  assert.equal(asset.formats.iterable.length, 1);
  const format = asset.formats.iterable[0]!;
  assert.deepEqual(format.classification, { generic: 'CODE', specific: 'ts' });
  assert.equal(format.fragment?.metadata?.ext, 'ts');
  assert.equal(asset.original.id, format.id);
  assert.equal(asset.preview.base.id, format.id);
  assert.equal(format.asset.id, asset.id, 'a format embeds its flattened asset');
  assert.equal(format.bytes.value, Buffer.byteLength(rawOf(asset)!));
  assert.ok(!Number.isNaN(Date.parse(asset.created.value)));
  assert.equal(asset.mechanism, 'MANUAL');
  const again = s.assets.get(asset.id);
  assert.equal(rawOf(again), rawOf(asset));
  assert.equal(s.assets.get(asset.id, { transferables: false }).formats.iterable[0]?.fragment?.string, undefined);
});

test('a classification given in the seed is honoured and the classifier is not asked', async () => {
  const before = s.classified;
  const asset = await s.assets.writes.create(codeSeed('print("hello")', 'hello', { ext: 'py' }), { author: TEST_AUTHOR });
  assert.equal(asset.formats.iterable[0]?.classification.specific, 'py');
  assert.equal(s.classified, before);
  await assert.rejects(s.assets.writes.create(codeSeed('x', 'bad', { ext: 'not-a-language' }), { author: TEST_AUTHOR }), InvalidInputError);
});

test('a create named like a file gives the classifier the name as a file name', async () => {
  await s.assets.writes.create(codeSeed('def first():\n    return 1\n', 'first.py'), { author: TEST_AUTHOR });
  assert.deepEqual(s.hints.at(-1), { fileName: 'first.py' });
});

test('file bytes: an image keeps its bytes, is classified as an image, and draft returns it unchanged', async () => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3];
  const seed = { asset: { application: codeSeed('').asset!.application, format: { file: { bytes: { raw: png } } } } };
  const asset = await s.assets.writes.create(seed, { author: TEST_AUTHOR });
  assert.deepEqual(asset.formats.iterable[0]?.classification, { generic: 'IMAGE', specific: 'png' });
  assert.deepEqual(asset.formats.iterable[0]?.file?.bytes?.raw, png);
  assert.deepEqual(await s.assets.draft(seed, true), seed);
  const file = await s.assets.writes.create({
    asset: { application: seed.asset.application, format: { file: { bytes: { raw: [...Buffer.from('x = 1\n')] }, metadata: { name: 'script.py' } } } },
  }, { author: TEST_AUTHOR });
  assert.equal(file.name, 'script.py');
  assert.equal(file.formats.iterable[0]?.classification.specific, 'py');
});

test('draft preprocesses and persists nothing', async () => {
  const count = s.assets.list().length;
  const drafted = await s.assets.draft(codeSeed('class ShoppingCart {}'), true);
  assert.equal(drafted.asset?.metadata?.name, 'ShoppingCart');
  assert.equal(drafted.asset?.format.classification?.specific, 'ts');
  assert.equal(drafted.asset?.format.fragment?.string?.raw, 'class ShoppingCart {}');
  const bare = await s.assets.draft(codeSeed('class ShoppingCart {}'), false);
  assert.equal(bare.asset?.format.fragment?.string, undefined);
  assert.equal(s.assets.list().length, count);
});

test('typo, partial and multi-word queries find the intended asset first', async () => {
  const corpus: Array<[string, string]> = [
    ['debounce', 'export function debounce(fn, wait) { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), wait); }; }'],
    ['Bounce animation keyframes', '@keyframes bounce { 0% { transform: translateY(0) } 50% { transform: translateY(-10px) } }'],
    ['fetchJson', 'async function fetchJson(url) { const r = await fetch(url); return r.json(); }'],
    ['fetchJsonp', 'function fetchJsonp(url, cb) { const s = document.createElement("script"); s.src = url + "?cb=" + cb; }'],
    ['flatten array', 'const flatten = (arr) => arr.reduce((a, x) => a.concat(Array.isArray(x) ? flatten(x) : x), []);'],
    ['Retry with exponential backoff', 'async function retry(fn, attempts) { for (let i = 0; i < attempts; i++) { try { return await fn(); } catch { await sleep(2 ** i * 100); } } }'],
    ['readConfig', 'import { readFileSync } from "node:fs";\nconst config = JSON.parse(readFileSync("config.json", "utf8"));'],
    ['useLocalStorage hook', 'function useLocalStorage(key, initial) { const [v, setV] = useState(() => localStorage.getItem(key) ?? initial); return [v, setV]; }'],
    ['Binary search', 'function binarySearch(xs, target) { let lo = 0, hi = xs.length - 1; while (lo <= hi) { const mid = (lo + hi) >> 1; if (xs[mid] === target) return mid; if (xs[mid] < target) lo = mid + 1; else hi = mid - 1; } return -1; }'],
    ['Postgres upsert', 'INSERT INTO users (id, email) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email; -- sql upsert'],
    ['Redis pub/sub', 'const sub = redis.createClient(); sub.subscribe("events", (msg) => console.log(msg));'],
    ['parseArgs', 'import { parseArgs } from "node:util";\nconst { values } = parseArgs({ options: { port: { type: "string" } } });'],
  ];
  for (const [name, code] of corpus) await s.assets.writes.create(codeSeed(code, name), { author: TEST_AUTHOR });
  const expectations: Array<[string, string]> = [
    ['debonce', 'debounce'],
    ['fetchJsn', 'fetchJson'],
    ['flaten array', 'flatten array'],
    ['retry exponential backof', 'Retry with exponential backoff'],
    ['readFileSyn', 'readConfig'],
    ['useLocalStorag', 'useLocalStorage hook'],
    ['binsearch', 'Binary search'],
    ['parseArgs', 'parseArgs'],
    ['sql upsert postgres', 'Postgres upsert'],
    ['setTimeout', 'debounce'],
  ];
  for (const [query, expected] of expectations) {
    assert.equal(names(query)[0], expected, `top hit for ${JSON.stringify(query)}: ${names(query).join(' | ')}`);
  }
  const hits = s.assets.searches.search({ query: 'debonce' }, { transferables: false, pseudo: false });
  assert.equal(hits.suggested, hits.iterable.filter((h) => !h.exact).length);
  assert.ok(hits.iterable.every((h, i, all) => i === 0 || all[i - 1]!.score >= h.score), 'ranked by score');
});

test('an exact phrase in double quotes matches exactly and only exactly', async () => {
  const a = await s.assets.writes.create(codeSeed('const total = price * quantity;', 'Line total'), { author: TEST_AUTHOR });
  const b = await s.assets.writes.create(codeSeed('const total = quantity * price;', 'Line total reversed'), { author: TEST_AUTHOR });
  const exact = s.assets.searches.search({ query: '"price * quantity"' }, { transferables: false, pseudo: false });
  assert.deepEqual(exact.iterable.map((h) => h.identifier), [a.id]);
  assert.equal(exact.exact, 1);
  assert.ok(names('"quantity * price"').includes('Line total reversed'));
  assert.ok(!names('"quantity * price"').includes('Line total'));
  assert.deepEqual(names('total "quantity * price"'), ['Line total reversed']);
  assert.ok(b.id);
});

test('tags: tag search, tag AND query, and neither → SearchUnspecifiedError', async () => {
  await s.assets.writes.create(codeSeed('SELECT * FROM orders WHERE paid = false', 'Unpaid orders', { tags: ['sql', 'billing'] }), { author: TEST_AUTHOR });
  await s.assets.writes.create(codeSeed('SELECT * FROM users WHERE active', 'Active users', { tags: ['sql'] }), { author: TEST_AUTHOR });
  assert.deepEqual(names('', { tags: ['billing'] }), ['Unpaid orders']);
  assert.deepEqual(new Set(names('', { tags: ['SQL'] })), new Set(['Unpaid orders', 'Active users']));
  assert.deepEqual(names('users', { tags: ['sql'] }), ['Active users']);
  assert.deepEqual(names('users', { tags: ['billing'] }), []);
  assert.throws(() => s.assets.searches.search({}, { transferables: true, pseudo: false }), SearchUnspecifiedError);
  assert.throws(() => s.assets.searches.search({ query: '  ', tags: [' '] }, { transferables: true, pseudo: false }), SearchUnspecifiedError);
});

test('pseudo and suggested assets stay out of snapshots and searches unless asked for', async () => {
  const pseudo = await s.assets.writes.create(codeSeed('const zanzibarPseudo = 1;', 'zanzibar pseudo', { pseudo: true }), { author: TEST_AUTHOR });
  const suggested = await s.assets.writes.create(codeSeed('const zanzibarSuggested = 2;', 'zanzibar suggested'), { suggested: true, author: TEST_AUTHOR });
  const ordinary = s.assets.list().map((a) => a.id);
  assert.ok(!ordinary.includes(pseudo.id) && !ordinary.includes(suggested.id));
  assert.ok(s.assets.list({ pseudo: true }).some((a) => a.id === pseudo.id));
  assert.deepEqual(s.assets.list({ suggested: true }).map((a) => a.id), [suggested.id]);
  assert.deepEqual(names('zanzibar'), []);
  assert.deepEqual(names('zanzibar', { pseudo: true }), ['zanzibar pseudo']);
  assert.deepEqual(s.assets.identifiers({ onlyPseudo: true }), [pseudo.id]);
  assert.ok(!s.assets.identifiers().includes(pseudo.id));
  assert.ok(s.assets.exists(suggested.id));
});

test('the index agrees with the records after update, reclassify and delete', async () => {
  const asset = await s.assets.writes.create(codeSeed('function quixoticAlpha() {}', 'quixotic alpha'), { author: TEST_AUTHOR });
  assert.deepEqual(names('quixotic'), ['quixotic alpha']);
  const updated = s.assets.writes.update({
    ...asset,
    name: 'zephyr beta',
    formats: { iterable: [{ ...asset.formats.iterable[0]!, fragment: { string: { raw: 'function zephyrBeta() {}' } } }] },
  }, TEST_WRITE);
  assert.equal(updated.name, 'zephyr beta');
  assert.equal(rawOf(updated), 'function zephyrBeta() {}');
  assert.ok(Date.parse(updated.updated.value) >= Date.parse(asset.updated.value));
  assert.deepEqual(names('quixotic'), []);
  assert.deepEqual(names('zephyr'), ['zephyr beta']);
  assert.deepEqual(names('zephyrBeta'), ['zephyr beta']);

  const reclassified = s.assets.writes.reclassify(asset.id, 'js' as never, TEST_WRITE);
  assert.deepEqual(reclassified.formats.iterable.map((f) => f.classification.specific), ['js']);
  assert.throws(() => s.assets.writes.reclassify(asset.id, 'klingon' as never, TEST_WRITE), InvalidInputError);

  const format = s.assets.writes.updateFormatValue({ ...s.assets.format(asset.original.id, true), fragment: { string: { raw: 'let gossamerGamma = 3;' } } }, true, TEST_WRITE);
  assert.equal(format.fragment?.string?.raw, 'let gossamerGamma = 3;');
  assert.deepEqual(names('gossamer'), ['zephyr beta']);
  assert.deepEqual(names('"zephyrBeta"'), [], 'the old content is no longer indexed');

  assert.equal(s.assets.writes.delete(asset.id, TEST_WRITE), asset.id);
  assert.deepEqual(names('zephyr'), []);
  assert.deepEqual(names('gossamer'), []);
  assert.throws(() => s.assets.get(asset.id), NotFoundError);
  assert.throws(() => s.assets.format(asset.original.id, true), NotFoundError);
  assert.equal(s.assets.tombstone(asset.id)?.id, asset.id);
  const rows = s.context.database.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number };
  const indexed = s.context.database.prepare('SELECT COUNT(*) AS n FROM asset_formats').get() as { n: number };
  assert.equal(indexed.n, rows.n, 'one format row per asset');
});

test('tags, websites and summaries link both ways; unknown ids are NotFound; repeating is harmless', async () => {
  const asset = await s.assets.writes.create(codeSeed('const kiwi = 1;', 'kiwi'), { author: TEST_AUTHOR });
  const tag = s.assets.writes.createTag({ text: 'fruit' }, TEST_WRITE);
  assert.equal(s.assets.writes.createTag({ text: 'Fruit' }, TEST_WRITE).id, tag.id, 'a tag is unique by text');
  s.assets.writes.associate(asset.id, 'tag', tag.id, TEST_WRITE);
  s.assets.writes.associate(asset.id, 'tag', tag.id, TEST_WRITE);
  assert.deepEqual(s.assets.get(asset.id).tags?.iterable.map((t) => t.text), ['fruit']);
  assert.deepEqual(s.assets.labels.tag(tag.id).assets?.iterable?.map((a) => a.id), [asset.id]);
  assert.deepEqual(names('', { tags: ['fruit'] }), ['kiwi']);
  s.assets.writes.disassociate(asset.id, 'tag', tag.id, TEST_WRITE);
  s.assets.writes.disassociate(asset.id, 'tag', tag.id, TEST_WRITE);
  assert.deepEqual(s.assets.get(asset.id).tags?.iterable, []);
  assert.throws(() => s.assets.writes.associate(asset.id, 'tag', 'nope', TEST_WRITE), NotFoundError);
  assert.throws(() => s.assets.writes.associate('nope', 'tag', tag.id, TEST_WRITE), NotFoundError);

  const site = s.assets.writes.createWebsite({ url: 'https://example.com/kiwi', name: 'Kiwi docs', asset: asset.id }, TEST_WRITE);
  assert.deepEqual(s.assets.get(asset.id).websites?.iterable.map((w) => w.url), ['https://example.com/kiwi']);
  assert.deepEqual(site.assets?.iterable?.map((a) => a.id), [asset.id]);
  assert.throws(() => s.assets.writes.createWebsite({ url: 'https://example.com/x', name: 'x', asset: 'nope' }, TEST_WRITE), NotFoundError);
  assert.ok(!s.assets.labels.websites().some((w) => w.url === 'https://example.com/x'), 'nothing half-written');

  s.context.records.put('workstream_summary', 'ws-1', { id: 'ws-1', name: 'Summary' });
  s.assets.writes.associate(asset.id, 'workstream_summary', 'ws-1', TEST_WRITE);
  assert.deepEqual(s.assets.get(asset.id).summaries?.iterable.map((w) => w.id), ['ws-1']);
  assert.throws(() => s.assets.writes.associate(asset.id, 'workstream_summary', 'ws-2', TEST_WRITE), NotFoundError);
  const other = s.assets.writes.createTag({ text: 'green' }, TEST_WRITE);
  s.assets.writes.associate(asset.id, 'tag', other.id, TEST_WRITE);
  s.assets.writes.associate(asset.id, 'tag', tag.id, TEST_WRITE);
  const listed = s.assets.list({ transferables: true }).find((a) => a.id === asset.id);
  assert.deepEqual(listed, s.assets.get(asset.id), 'a listed asset is rendered as it is alone (tags in link order)');
  assert.deepEqual(listed?.tags?.iterable.map((t) => t.text), ['green', 'fruit']);

  s.assets.writes.delete(asset.id, TEST_WRITE);
  assert.deepEqual(s.assets.labels.website(site.id).assets?.iterable, [], 'no dangling links after delete');
  assert.deepEqual(s.context.links.partners({ kind: 'workstream_summary', id: 'ws-1' }, 'asset'), []);
});

test('scores increment and activities are recorded', async () => {
  const asset = await s.assets.writes.create(codeSeed('const lime = 2;', 'lime'), { author: TEST_AUTHOR });
  s.assets.writes.incrementScores(asset.id, { asset: { reuse: true, reference: true } });
  s.assets.writes.incrementScores(asset.id, { asset: { reuse: true } });
  const score = s.assets.get(asset.id).score;
  assert.equal(score?.reuse, 2);
  assert.equal(score?.reference, 1);
  assert.throws(() => s.assets.writes.incrementScores('nope', { asset: { reuse: true } }), NotFoundError);
  s.assets.writes.recordActivity(asset.id, { asset: { asset: { id: asset.id } } } as never);
  const activities = s.assets.activities(asset.id).iterable;
  assert.equal(activities.length, 2, 'created + recorded');
  assert.ok(activities.every((a) => a.asset?.id === asset.id && a.application.id));
});

test('related and recommended rank by content similarity', async () => {
  const a = await s.assets.writes.create(codeSeed('function parseCsvRow(line) { return line.split(","); }', 'csv row'), { author: TEST_AUTHOR });
  const b = await s.assets.writes.create(codeSeed('function parseCsvFile(text) { return text.split("\\n").map(parseCsvRow); }', 'csv file'), { author: TEST_AUTHOR });
  const c = await s.assets.writes.create(codeSeed('function drawCircle(ctx, radius) { ctx.arc(0, 0, radius, 0, Math.PI * 2); }', 'circle'), { author: TEST_AUTHOR });
  const related = s.assets.recommendations.related({ iterable: [s.assets.get(a.id)] });
  assert.equal(related.iterable[0]?.id, b.id);
  assert.ok(!related.iterable.some((x) => x.id === a.id), 'inputs are not related to themselves');
  assert.ok(!related.iterable.some((x) => x.id === c.id));
  assert.deepEqual(s.assets.recommendations.related(undefined).iterable, []);
  const recommended = s.assets.recommendations.recommended({
    assets: { iterable: [s.assets.get(c.id)] },
    interactions: { iterable: [{ asset: c.id, interactions: { viewed: '1', touched: true } }] },
  });
  assert.equal(recommended.iterable[0]?.id, c.id);
  assert.throws(() => s.assets.recommendations.recommended({ assets: { iterable: [] }, interactions: { iterable: [{}] } }), InvalidInputError);
  assert.ok(s.assets.recommendations.recommended(undefined).iterable.length > 0);
});

test('filters: classification, phrase, ranges, space and nested OR', async () => {
  const py = await s.assets.writes.create(codeSeed('def walrus_operator(): pass', 'walrus', { ext: 'py' }), { author: TEST_AUTHOR });
  const rs = await s.assets.writes.create(codeSeed('fn walrus_rust() {}', 'walrus rust', { ext: 'rs' }), { author: TEST_AUTHOR });
  const run = (input: object) =>
    s.assets.searches.searchWithFilters(input, { transferables: false, pseudo: false }).results.iterable.map((h) => h.identifier);
  assert.deepEqual(run({ query: 'walrus', filters: { iterable: [{ classification: 'py' }] } }), [py.id]);
  assert.deepEqual(new Set(run({ filters: { iterable: [{ phrase: { value: 'walrus', title: true } }] } })), new Set([py.id, rs.id]));
  assert.deepEqual(run({ filters: { iterable: [{ phrase: { value: 'fn walrus', content: true } }] } }), [rs.id]);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  assert.deepEqual(run({ query: 'walrus', filters: { iterable: [{ created: { from: { value: future } } }] } }), []);
  assert.deepEqual(run({ query: 'walrus', space: { identifers: { iterable: [{ id: rs.id }] } } }), [rs.id]);
  assert.deepEqual(run({ query: 'walrus', space: { identifiers: { iterable: [{ id: py.id }] } } }), [py.id]);
  const either = run({ query: 'walrus', filters: { iterable: [{ operations: { type: 'OR', iterable: [{ classification: 'py' }, { classification: 'rs' }] } }] } });
  assert.deepEqual(new Set(either), new Set([py.id, rs.id]));
});

test('indexers are rebuilt on registration and kept in step inside each write', async () => {
  const seen = new Map<string, string>();
  let rebuilt = 0;
  const registration = s.assets.registerIndexer({
    upsert: (id, text) => void seen.set(id, text),
    remove: (id) => void seen.delete(id),
    rebuild(all) {
      for (const { id, text } of all) {
        rebuilt++;
        seen.set(id, text);
      }
    },
  });
  assert.ok(rebuilt > 0);
  const asset = await s.assets.writes.create(codeSeed('const papaya = 1;', 'papaya'), { author: TEST_AUTHOR });
  assert.equal(seen.get(asset.id), 'const papaya = 1;');
  s.assets.writes.delete(asset.id, TEST_WRITE);
  assert.ok(!seen.has(asset.id));
  registration.dispose();
  const later = await s.assets.writes.create(codeSeed('const mango = 1;', 'mango'), { author: TEST_AUTHOR });
  assert.ok(!seen.has(later.id));
});

test('a failing write leaves nothing behind', async () => {
  const before = s.assets.list({ pseudo: true }).length;
  const thrower = s.assets.registerIndexer({
    upsert() {
      throw new Error('indexer broke');
    },
    remove() {},
  });
  await assert.rejects(s.assets.writes.create(codeSeed('const guava = 1;', 'guava'), { author: TEST_AUTHOR }), /indexer broke/);
  thrower.dispose();
  assert.equal(s.assets.list({ pseudo: true }).length, before);
  assert.deepEqual(names('guava'), []);
});
