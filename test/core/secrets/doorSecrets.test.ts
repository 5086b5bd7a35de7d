/** How a door hides values and how a machine takes its own back (doorSecrets.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactTexts, restoreText, secretSpans } from '../../../src/core/secrets/doorSecrets.ts';
import { redactText, type SecretFinding } from '../../../src/core/secrets/findings.ts';
import { FakeSecrets, PLANTED } from '../../support/fakeSecrets.ts';

const detector = new FakeSecrets();

function finding(start: number, end: number, label: string): SecretFinding {
  return { ruleId: 'r', category: 'SECRET', severity: 'HIGH', label, field: 'code', start, end, line: 1 };
}

test('the spans hide what redactText hides (overlaps merged under the first label)', () => {
  const text = 'a=0123456789 b=abcdef';
  const findings = [finding(2, 12, 'one'), finding(5, 14, 'two'), finding(15, 21, 'three'), finding(15, 18, 'four')];
  const { texts } = redactTexts({ code: text, name: '' }, findings);
  assert.equal(texts.code, redactText(text, findings));
  assert.deepEqual(secretSpans(text, findings).map((s) => [s.start, s.end, s.label]), [[2, 14, 'one'], [15, 21, 'three']]);
});

test('name, code and description are each redacted; a text without findings is given back as it is', () => {
  const texts = { code: `k = "${PLANTED.stripeKey}"`, name: `n ${PLANTED.githubToken}`, description: `d ${PLANTED.slackToken}` };
  const { texts: out, redacted } = redactTexts(texts, detector.findings(texts));
  assert.ok(redacted);
  assert.equal(out.code, 'k = "«secret: Stripe secret key»"');
  assert.equal(out.name, 'n «secret: GitHub token»');
  assert.equal(out.description, 'd «secret: Slack token»');
  const plain = { code: 'x', name: 'y' };
  assert.equal(redactTexts(plain, []).texts, plain);
});

function roundTrip(local: string, edit: (redacted: string) => string): string {
  const findings = detector.findings({ code: local, name: '' });
  const redacted = redactTexts({ code: local, name: '' }, findings).texts.code;
  return restoreText(edit(redacted), local, secretSpans(local, findings));
}

test('an edit around the placeholders comes back with this machine\'s values', () => {
  const local = `a = "${PLANTED.awsKeyId}"\nb = "${PLANTED.awsSecret}"\n`;
  assert.equal(roundTrip(local, (r) => `# top\n${r}# end\n`), `# top\n${local}# end\n`);
});

test('two values of one label: each placeholder takes the value of its own line, even when lines move or one is removed', () => {
  const first = 'sk_live_first0000000000000000';
  const second = 'sk_live_second000000000000000';
  const detector2 = new FakeSecrets({ first, second }, { first: 'Stripe secret key', second: 'Stripe secret key' });
  const local = `prod = "${first}"\ntest = "${second}"\n`;
  const findings = detector2.findings({ code: local, name: '' });
  const redacted = redactTexts({ code: local, name: '' }, findings).texts.code;
  const spans = secretSpans(local, findings);
  const swapped = redacted.split('\n').slice(0, 2).reverse().join('\n') + '\n';
  assert.equal(restoreText(swapped, local, spans), `test = "${second}"\nprod = "${first}"\n`);
  const firstGone = redacted.split('\n').slice(1).join('\n');
  assert.equal(restoreText(firstGone, local, spans), `test = "${second}"\n`);
});

test('a placeholder with no value here stays; text that only looks like one is left alone', () => {
  const local = `k = "${PLANTED.stripeKey}"`;
  const incoming = 'k = "«secret: Stripe secret key»"\nt = "«secret: GitHub token»"\nodd «secret: no close\n';
  assert.equal(restoreText(incoming, local, secretSpans(local, detector.findings({ code: local, name: '' }))), `k = "${PLANTED.stripeKey}"\nt = "«secret: GitHub token»"\nodd «secret: no close\n`);
});

test('restoring is linear: many placeholders on one long line, and many unclosed openings', () => {
  const value = PLANTED.slackToken;
  const local = Array.from({ length: 20_000 }, () => `"${value}"`).join(',');
  const findings = detector.findings({ code: local, name: '' });
  const redacted = redactTexts({ code: local, name: '' }, findings).texts.code;
  let started = performance.now();
  assert.equal(restoreText(redacted, local, secretSpans(local, findings)), local);
  assert.ok(performance.now() - started < 2000);
  started = performance.now();
  const odd = `${'«secret: '.repeat(200_000)}»`;
  assert.equal(restoreText(odd, local, secretSpans(local, findings)), odd);
  assert.ok(performance.now() - started < 2000);
});
