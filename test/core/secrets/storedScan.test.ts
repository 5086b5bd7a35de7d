/**
 * A text past the content limit (an older store's, grown here in SQL) is read, hashed and scanned on
 * the secrets worker from the store's file (storedScan.ts), never on the host's thread: its findings
 * are those the host's own read and scan find, its fingerprint the one the host computes, and a
 * worker that cannot start leaves the host to read it as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../../src/core/satchel.ts';
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import { SecretsService, type SecretTexts } from '../../../src/core/secrets/secretsService.ts';
import type { SecretFinding } from '../../../src/core/secrets/findings.ts';
import { LIMITS } from '../../../src/core/limits.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { seed } from '../sync/vaultSupport.ts';
import { PLANTED } from '../../support/fakeSecrets.ts';
import { AssetSecretTexts } from '../../../src/core/assets/assetSecretTexts.ts';
import { AssetStore } from '../../../src/core/assets/assetStore.ts';
import { Descriptions } from '../../../src/core/assets/descriptions.ts';
import type { StoreContext } from '../../../src/core/context.ts';

const filler = 'const value = compute(alpha, beta, gamma); // padding\n';
const border = LIMITS.contentChars - 20;
let code = `const stripe = new Stripe("${PLANTED.stripeKey}");\n`;
code += filler.repeat(Math.ceil((border - code.length) / filler.length));
code = `${code.slice(0, border)}\nconst token = "${PLANTED.githubToken}";\n${filler.repeat(Math.ceil(LIMITS.contentChars / filler.length))}const slack = "${PLANTED.slackToken}";\n`;

/** A store holding one snippet whose text is `code`, grown in SQL as a store written before the limit: its head is made when it is opened. */
async function grownStore(): Promise<{ dataDir: string; id: string }> {
  const dataDir = tempDir('satchel-stored-scan-');
  const core = Satchel.open({ dataDir, secretsScan: false });
  const id = (await core.assets.writes.create(seed('export const small = 1;\n', { name: `key ${PLANTED.awsKeyId}`, ext: 'ts' }), TEST_WRITE)).id;
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  db.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`).run(code, id);
  db.exec('DROP TABLE IF EXISTS asset_heads');
  db.exec('DELETE FROM schema_version WHERE version = 202');
  db.close();
  return { dataDir, id };
}

/** A scanner that scans nothing itself: which path a scan took shows in what it was asked. */
class Watched extends SecretScanner {
  readonly asked: string[] = [];
  override scan(texts: SecretTexts): Promise<SecretFinding[]> {
    this.asked.push(`scan ${texts.code.length}`);
    return super.scan(texts);
  }
}

/** The store's own source of texts (what AssetService gives its secrets area), over `context`. */
const sourceOver = (context: StoreContext): AssetSecretTexts => new AssetSecretTexts(new AssetStore(context), new Descriptions(context));

const shape = (findings: readonly SecretFinding[]) => findings.map((f) => [f.field, f.start, f.end, f.line, f.label]);

test('a text past the content limit is read and scanned on the worker, with the findings and fingerprint of a read on the host', { timeout: 60_000 }, async () => {
  const { dataDir, id } = await grownStore();
  const core = Satchel.open({ dataDir, secretsScan: false });
  const scanner = new Watched();
  const offThread = new SecretsService(core.context, sourceOver(core.context), { scanner, background: false });
  try {
    assert.ok(code.length > LIMITS.contentChars + 1, 'past the content limit');
    const found = await offThread.findingsNow(id);
    assert.deepEqual(scanner.asked, [], 'the host did not read or scan the text');
    const values = found.map((f) => (f.field === 'code' ? code : `key ${PLANTED.awsKeyId}`).slice(f.start, f.end));
    for (const value of [PLANTED.stripeKey, PLANTED.githubToken, PLANTED.slackToken, PLANTED.awsKeyId]) assert.equal(values.filter((v) => v.includes(value)).length, 1, value);
    // The host's own read and scan of the same texts finds the same, at the same places.
    const texts = core.assets.secrets.textsOf(id)!;
    assert.equal(texts.code, code);
    const reference = new SecretScanner();
    try {
      assert.deepEqual(shape(found), shape(await reference.scan(texts)));
    } finally {
      reference.dispose();
    }
    assert.ok(offThread.isCurrent(id));
    // The same texts noted again (a write that does not change them): the host, reading them itself,
    // computes the fingerprint the worker recorded, so they are not scanned again.
    const onThread = new SecretsService(core.context, { textsOf: (asset) => core.assets.secrets.textsOf(asset) }, { scanner, background: false });
    core.context.database.prepare('UPDATE assets SET updated = updated WHERE id = ?').run(id);
    assert.equal(onThread.isCurrent(id), false);
    assert.deepEqual(shape(await onThread.findingsNow(id)), shape(found));
    assert.deepEqual(scanner.asked, [], 'not scanned again: the fingerprints agree');
    onThread.dispose();
  } finally {
    offThread.dispose();
    scanner.dispose();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a worker that cannot start leaves the host to read the text and scan it as before', { timeout: 60_000 }, async () => {
  const { dataDir, id } = await grownStore();
  const core = Satchel.open({ dataDir, secretsScan: false });
  const scanner = new Watched({ worker: new URL('./no-such-worker.ts', import.meta.url) });
  const secrets = new SecretsService(core.context, sourceOver(core.context), { scanner, background: false });
  try {
    const found = await secrets.findingsNow(id);
    assert.deepEqual(scanner.asked, [`scan ${code.length}`]);
    assert.equal(found.filter((f) => f.field === 'code').length, 3);
    assert.ok(secrets.isCurrent(id));
  } finally {
    secrets.dispose();
    scanner.dispose();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
