/**
 * The secrets area keeps findings current with every write door (create, update, format update,
 * edit/save, restore, import, description), clears them when the value is gone, honours "Not a
 * Secret" everywhere, and never lets a door see stale findings (findingsNow scans a pending asset).
 */
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { redactText, type SecretFinding } from '../../../src/core/secrets/findings.ts';
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import { SecretsService, type SecretTexts } from '../../../src/core/secrets/secretsService.ts';
import { SecretRecords } from '../../../src/core/secrets/secretRecords.ts';
import { PLANTED } from './plantedSecrets.ts';

const stripe = PLANTED.find((p) => p.shape === 'stripe:STRIPE_SECRET_KEY_LIVE')!;
const github = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!;

test('a create is pending until scanned; findingsNow scans it at once and the store keeps the result', async () => {
  await withCore(async (core) => {
    const secrets = core.assets.secrets;
    const asset = await core.assets.writes.create(codeSeed(`import stripe\n${stripe.text}\n`), { author: TEST_AUTHOR });
    const announced: string[] = [];
    const listening = core.context.onDidChange((change) => void (change.kind === 'asset' && announced.push(change.id)));
    const now = await secrets.findingsNow(asset.id);
    listening.dispose();
    assert.deepEqual(announced, [asset.id], 'the asset streams hear that its sensitives changed');
    assert.deepEqual(now.map((f) => [f.label, f.line, f.category, f.severity]), [['Stripe live secret key', 2, 'SECRET_KEY', 'HIGH']]);
    assert.ok(secrets.isCurrent(asset.id));
    assert.deepEqual(secrets.findingsFor(asset.id), now);
    assert.equal(secrets.holdsKnownValue(stripe.value), true, 'a search for the value itself');
    assert.equal(secrets.holdsKnownValue(`find "${stripe.value}" please`), true);
    assert.equal(secrets.holdsKnownValue('stripe client setup'), false);
    assert.ok(!redactText(core.assets.text(asset.id)!, now).includes(stripe.value));
  }, { secretsScan: false });
});

test('every write door notes the asset; the value gone clears its findings', async () => {
  await withCore(async (core) => {
    const secrets = core.assets.secrets;
    const asset = await core.assets.writes.create(codeSeed('const x = 1;\n'), { author: TEST_AUTHOR });
    assert.deepEqual(await secrets.findingsNow(asset.id), []);

    // The editor's save (and an agent's update): edit.
    core.assets.writes.edit(asset.id, { content: { text: `const t = "${github.value}";\n` } }, TEST_WRITE);
    assert.ok(!secrets.isCurrent(asset.id), 'an edit leaves the asset pending');
    assert.equal((await secrets.findingsNow(asset.id))[0]?.label, 'GitHub token');

    // The value removed: no finding.
    core.assets.writes.edit(asset.id, { content: { text: 'const t = process.env.GITHUB_TOKEN;\n' } }, TEST_WRITE);
    assert.deepEqual(await secrets.findingsNow(asset.id), []);

    // The name and the description are scanned too.
    core.assets.writes.edit(asset.id, { name: `deploy ${github.value}`, description: `uses ${stripe.value}` }, TEST_WRITE);
    assert.deepEqual((await secrets.findingsNow(asset.id)).map((f) => f.field).sort(), ['description', 'name']);

    // A restore of a revision that held a value brings its finding back.
    const withToken = core.history.list(asset.id).revisions.find((r) => core.history.get(asset.id, r.id).content?.text?.includes(github.value))!;
    core.history.restore(asset.id, withToken.id, TEST_WRITE);
    assert.ok((await secrets.findingsNow(asset.id)).some((f) => f.label === 'GitHub token'));

    // Update (POST /asset/update) of the format's content.
    const full = core.assets.get(asset.id);
    const format = full.formats.iterable[0]!;
    core.assets.writes.updateFormatValue({ ...format, fragment: { string: { raw: `key = "${stripe.value}"` } } }, true, TEST_WRITE);
    assert.ok((await secrets.findingsNow(asset.id)).some((f) => f.label === 'Stripe live secret key' && f.field === 'code'));

    // Deleted: nothing is kept of its findings.
    core.assets.writes.delete(asset.id, TEST_WRITE);
    assert.deepEqual(secrets.findingsFor(asset.id), []);
    await assert.rejects(secrets.findingsNow(asset.id), /not found|No asset/i);
  }, { secretsScan: false });
});

test('the background scan takes every pending asset (the one-off scan of a library), with progress', async () => {
  await withCore(async (core) => {
    for (let i = 0; i < 5; i++) await core.assets.writes.create(codeSeed(i === 3 ? github.text : `const n${i} = ${i};`), { author: TEST_AUTHOR });
    assert.equal(core.assets.secrets.progress().pending, 5);
    const seen: number[] = [];
    const progress = await core.assets.secrets.scanPending({ onProgress: (p) => seen.push(p.pending) });
    assert.equal(progress.pending, 0);
    assert.ok(seen.length >= 5 && seen.at(-1) === 0);
    const summary = core.assets.secrets.summary();
    assert.equal(summary.flaggedSnippets, 1);
    assert.deepEqual(summary.byCategory, { ACCESS_TOKEN: 1 });
  }, { secretsScan: false });
});

test('a run counts what is pending now and then, not after every asset (a COUNT over every note is 1 ms at 100k)', async () => {
  await withCore(async (core) => {
    for (let i = 0; i < 40; i++) await core.assets.writes.create(codeSeed(`const n${i} = ${i};`), { author: TEST_AUTHOR });
    const counting = mock.method(SecretRecords.prototype, 'pendingCount');
    const seen: number[] = [];
    const final = await core.assets.secrets.scanPending({ onProgress: (p) => seen.push(p.pending) });
    const counts = counting.mock.callCount();
    counting.mock.restore();
    assert.equal(final.pending, 0);
    assert.equal(seen.length, 40, 'progress after every asset');
    assert.deepEqual(seen, [...seen].sort((a, b) => b - a), 'pending only falls');
    assert.equal(seen.at(-1), 0);
    // The first asset's count, the answer's, and those 250 ms apart in a run this short.
    assert.ok(counts <= 6, `${counts} counts for 40 assets`);
  }, { secretsScan: false });
});

test('a cancelled scan stops between assets and resumes where it stopped', async () => {
  await withCore(async (core) => {
    for (let i = 0; i < 4; i++) await core.assets.writes.create(codeSeed(`const n${i} = ${i};`), { author: TEST_AUTHOR });
    const stop = new AbortController();
    const progress = await core.assets.secrets.scanPending({ signal: stop.signal, onProgress: (p) => { if (p.pending <= 2) stop.abort(); } });
    assert.equal(progress.pending, 2);
    assert.ok(progress.paused);
    assert.equal((await core.assets.secrets.scanPending()).pending, 0);
  }, { secretsScan: false });
});

test('"Not a Secret" is remembered per value and left out by every read; sync-with-secrets is stored per snippet', async () => {
  await withCore(async (core) => {
    const secrets = core.assets.secrets;
    const a = await core.assets.writes.create(codeSeed(github.text), { author: TEST_AUTHOR });
    const b = await core.assets.writes.create(codeSeed(`again: ${github.value}\n${stripe.text}`), { author: TEST_AUTHOR });
    await secrets.settled();
    const [sensitive] = secrets.storedFindings(a.id);
    secrets.dismiss(a.id, sensitive!.sensitiveId);
    assert.deepEqual(secrets.findingsFor(a.id), []);
    assert.deepEqual((await secrets.findingsNow(b.id)).map((f) => f.label), ['Stripe live secret key'], 'the same value elsewhere is dismissed too');
    assert.deepEqual(await secrets.scanTexts({ code: github.text }), []);
    assert.throws(() => secrets.dismiss(a.id, 'no-such-sensitive'), /not found|No sensitive/i);

    assert.equal(secrets.syncsWithSecrets(b.id), false);
    secrets.setSyncWithSecrets(b.id, true);
    assert.equal(secrets.syncsWithSecrets(b.id), true);
    assert.equal(secrets.summary().syncingWithSecrets, 1);
    secrets.setSyncWithSecrets(b.id, false);
    assert.equal(secrets.syncsWithSecrets(b.id), false);
  }, { secretsScan: false });
});

test('the background scan runs on its own after start, and an asset written mid-scan is scanned again', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(codeSeed('const x = 1;'), { author: TEST_AUTHOR });
    await core.assets.secrets.settled();
    core.assets.writes.edit(asset.id, { content: { text: stripe.text } }, TEST_WRITE);
    const deadline = Date.now() + 10_000;
    while (!core.assets.secrets.isCurrent(asset.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(core.assets.secrets.findingsFor(asset.id)[0]?.label, 'Stripe live secret key');
  });
});

test('an import, written by its own process on its own connection, leaves its snippets pending and flagged once scanned', async () => {
  await withCore(async (core) => {
    const entries = { 'Deploy hook': { scope: 'shellscript', prefix: ['deploy'], body: github.text }, Plain: { scope: 'typescript', prefix: ['plain'], body: 'export const x = 1;' } };
    const text = JSON.stringify(entries);
    const summary = await core.imports.import([{ name: 'mine.code-snippets', text: () => text }]);
    assert.equal(summary.imported, 2);
    const ids = core.assets.identifiers();
    assert.ok(ids.every((id) => !core.assets.secrets.isCurrent(id)), 'the import process\'s writes were noted');
    const flagged = [];
    for (const id of ids) if ((await core.assets.secrets.findingsNow(id)).length > 0) flagged.push(core.assets.get(id).name);
    assert.deepEqual(flagged, ['Deploy hook']);
  }, { secretsScan: false });
});

test('a scan that fails leaves its asset pending (a door scanning it fails closed) and does not stop the others', async () => {
  await withCore(async (core) => {
    const bad = await core.assets.writes.create(codeSeed('const poison = 1;'), { author: TEST_AUTHOR });
    const good = await core.assets.writes.create(codeSeed(github.text), { author: TEST_AUTHOR });
    class Failing extends SecretScanner {
      override scan(texts: SecretTexts): Promise<SecretFinding[]> {
        return texts.code.includes('poison') ? Promise.reject(new Error('scanner broke')) : super.scan(texts);
      }
    }
    const errors: string[] = [];
    const context = Object.assign(Object.create(core.context) as typeof core.context, { logger: { info() {}, warn() {}, error: (message: string) => errors.push(message) } });
    const secrets = new SecretsService(context, { textsOf: (id) => core.assets.secrets.textsOf(id) }, { scanner: new Failing() });
    try {
      const progress = await secrets.scanPending();
      assert.equal(progress.pending, 1);
      assert.ok(!secrets.isCurrent(bad.id) && secrets.isCurrent(good.id));
      assert.equal(secrets.findingsFor(good.id)[0]?.label, 'GitHub token');
      assert.match(errors.join('\n'), new RegExp(bad.id));
      await assert.rejects(secrets.findingsNow(bad.id), /scanner broke/);
      await secrets.settled();
    } finally {
      secrets.dispose();
    }
  }, { secretsScan: false });
});
