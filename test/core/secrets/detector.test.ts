/**
 * The detector finds every planted credential shape (recall 100%: the value is hidden by the
 * findings' spans) and flags no ordinary code, nor anything in the bench corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets, detectInText } from '../../../src/core/secrets/detector.ts';
import { redactText, secretCategories, secretSeverities } from '../../../src/core/secrets/findings.ts';
import { knownMessages } from '../../../src/core/secrets/ruleLabels.ts';
import { assignedSecrets, isSecretName } from '../../../src/core/secrets/assignments.ts';
import { generateCorpus } from '../../bench/corpus.ts';
import { PLANTED } from './plantedSecrets.ts';
import { ORDINARY } from './ordinaryCode.ts';

/** Messages a snippet cannot carry: a .p12 file is binary; an account number is dropped on purpose. */
const UNPLANTABLE = new Set(['gcp:PrivateKeyP12', 'aws:AWSAccountID', 'npm:PackageJSON_xOauthToken']);

test('every planted credential is found, its value hidden by the findings, with category, severity, label and line', async () => {
  assert.ok(PLANTED.length >= 30, 'at least 30 shapes');
  const missed: string[] = [];
  for (const planted of PLANTED) {
    const text = `// saved snippet\n${planted.text}\n`;
    const findings = await detectSecrets({ code: text });
    const redacted = redactText(text, findings);
    if (findings.length === 0 || redacted.includes(planted.value)) missed.push(planted.shape);
    for (const finding of findings) {
      assert.ok(secretCategories.includes(finding.category) && secretSeverities.includes(finding.severity));
      assert.ok(finding.label.length > 0 && !finding.label.includes(planted.value));
      assert.equal(finding.line, text.slice(0, finding.start).split('\n').length, `${planted.shape}: line of the value`);
      assert.equal(finding.field, 'code');
    }
  }
  assert.deepEqual(missed, [], 'recall 100%');
});

test('every message of the preset a snippet can hold is planted', () => {
  const planted = new Set(PLANTED.map((p) => p.shape));
  const unplanted = knownMessages().filter((message) => !planted.has(message) && !UNPLANTABLE.has(message));
  assert.deepEqual(unplanted, []);
});

test('each field is scanned on its own: a name or description holding a value is found there', async () => {
  const token = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!.value;
  const findings = await detectSecrets({ code: 'const x = 1;', name: `deploy with ${token}`, description: `line one\nuse ${token}` });
  assert.deepEqual(findings.map((f) => [f.field, f.line]), [['name', 1], ['description', 2]]);
});

test('ordinary code is not flagged (UUIDs, lockfile hashes, commit ids, process.env, prompts, typed configs, base64 helpers)', async () => {
  for (const [what, code] of ORDINARY) {
    const findings = await detectSecrets({ code });
    assert.deepEqual(findings.map((f) => `${f.label}: ${code.slice(f.start, f.end)}`), [], what);
  }
});

test('no false positive on the bench corpus (1k)', async () => {
  const corpus = generateCorpus(1000);
  const flagged: string[] = [];
  for (const asset of corpus.assets) {
    const findings = await detectSecrets({ code: asset.code, name: asset.name });
    if (findings.length > 0) flagged.push(asset.name);
  }
  assert.deepEqual(flagged, []);
});

test('the assignment rule: a secret name, then a long random literal', () => {
  for (const name of ['password', 'DB_PASSWORD', 'client_secret', 'apiKey', 'API_KEY', 'signingKey', 'authToken', 'x.secret']) assert.ok(isSecretName(name), name);
  for (const name of ['secretName', 'tokenizer', 'password_hash', 'keyName', 'key', 'monkey', 'tokens']) assert.ok(!isSecretName(name), name);
  const value = 'Zq8rT2vN5xK1mP7wL4cY9bH3';
  assert.equal(assignedSecrets(`password = "${value}"`).length, 1);
  assert.equal(assignedSecrets(`password == "${value}"`).length, 0, 'a comparison');
  assert.equal(assignedSecrets(`password = "${value.slice(0, 10)}"`).length, 0, 'too short');
  assert.equal(assignedSecrets(`password = "aaaaaaaaaaaaaaaaaaaaaaaa1"`).length, 0, 'not random');
  assert.equal(assignedSecrets(`token = ${value}(request)`).length, 0, 'a call');
});

test('a placeholder in a key shape is not a key; an OpenSSH key with runs of A still is', async () => {
  assert.deepEqual(await detectInText('STRIPE=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx', 'code'), []);
  const body = `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACDx\nQ7zM9kV2pR4tY8wN3cL6bH1jF5gD0aA9eU2iO7qZ8rT2vN5xK1mP7wL4cY9bH3AAAAAAAAAAAAAAAA==`;
  const findings = await detectInText(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`, 'code');
  assert.equal(findings[0]?.category, 'PRIVATE_KEY');
});
