/**
 * A store whose findings a different detector made reads every snippet again (SecretRecords.readAgainFor):
 * a value a newer detector finds in a snippet scanned before reaches no door. A store already on this
 * detector scans nothing again when it opens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../../src/core/satchel.ts';
import { DETECTOR_VERSION } from '../../../src/core/secrets/detector.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { seed } from '../sync/vaultSupport.ts';

const KEY = 'PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+';

test('the detector\'s version names the preset installed', () => {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@secretlint/secretlint-rule-preset-recommend');
  let dir = dirname(main);
  while (!dir.endsWith('secretlint-rule-preset-recommend')) dir = dirname(dir);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  assert.ok(DETECTOR_VERSION.includes(`secretlint-rule-preset-recommend ${version};`), `${DETECTOR_VERSION} against ${version}: bump the version with the preset`);
});

test('a snippet scanned by an older detector is read again when the store opens, and what the new one finds is recorded; on the same detector nothing is', async () => {
  const dataDir = tempDir('satchel-detector-version-');
  try {
    // Scanned now, with this detector.
    let core = Satchel.open({ dataDir, importWorker: false, secretsScan: false });
    const { id } = await core.assets.writes.create(seed(`AWS_SECRET_ACCESS_KEY=${KEY} aws s3 ls\n`, { name: 'List buckets', ext: 'sh' }), TEST_WRITE);
    assert.equal((await core.assets.secrets.findingsNow(id)).length, 1);
    assert.equal(core.assets.secrets.isCurrent(id), true);
    await core.close();

    // Opened again on the same detector: still current, nothing to read again.
    core = Satchel.open({ dataDir, importWorker: false, secretsScan: false });
    assert.equal(core.assets.secrets.isCurrent(id), true);
    await core.close();

    // As an older detector left it: its scan found nothing in the line (a command after the value).
    const db = new DatabaseSync(join(dataDir, 'satchel.db'));
    db.prepare("UPDATE secret_settings SET value = 'secretlint-rule-preset-recommend 13.0.7; satchel 1' WHERE key = 'detector'").run();
    db.prepare('DELETE FROM secret_findings WHERE asset_id = ?').run(id);
    db.close();

    core = Satchel.open({ dataDir, importWorker: false, secretsScan: false });
    try {
      assert.equal(core.assets.secrets.isCurrent(id), false, 'pending again');
      assert.equal(core.assets.secrets.progress().pending, 1);
      const findings = await core.assets.secrets.findingsNow(id);
      assert.deepEqual(findings.map((f) => f.label), ['Access key']);
      assert.equal(core.assets.secrets.isCurrent(id), true);
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
