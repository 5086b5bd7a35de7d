/**
 * Every rule of the detector (each preset rule on its own, and the assignment rule) costs linear time
 * in its input whatever the characters, proved at the content limit (4 Mi characters, core/limits.ts):
 * on texts built to make regular expressions backtrack (a value missing its last character, a rule's
 * prefix over and over, the same credential line 50k times, runs of the characters rules split on),
 * the limit costs at most a constant times what an eighth of it costs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectInText, presetRules } from '../../../src/core/secrets/detector.ts';
import { ASSIGNMENT_RULE } from '../../../src/core/secrets/ruleLabels.ts';
import { LIMITS } from '../../../src/core/limits.ts';
import { PLANTED } from './plantedSecrets.ts';

const LIMIT = LIMITS.contentChars;

/** `unit` repeated to exactly `n` characters. */
function fillTo(unit: string, n: number): string {
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

async function timed(rule: string, text: string): Promise<number> {
  const started = performance.now();
  await detectInText(text, 'code', rule);
  return performance.now() - started;
}

/** Texts that make a rule's expressions work hardest, from what it matches. */
function adversarial(rule: string): string[] {
  const short = rule.replace('@secretlint/secretlint-rule-', '');
  const planted = PLANTED.filter((p) => (rule === ASSIGNMENT_RULE ? p.shape.startsWith('satchel:') : p.shape.startsWith(`${short}:`)));
  const generic = ['a', 'a1', 'a-', 'a:', 'a=', '=', ':', '-', ' ', '\n', '"', '_', 'a:b@', '://a:', 'password=', 'token: '];
  return [...planted.slice(0, 2).flatMap((p) => [p.value.slice(0, -1), p.value.slice(0, 12), `${p.text}\n`, `${p.text} `]), ...generic];
}

const rules = [...presetRules.map((rule) => rule.meta.id), ASSIGNMENT_RULE];

for (const rule of rules) {
  test(`${rule} is linear in its input at the content limit`, async () => {
    for (const unit of adversarial(rule)) {
      await timed(rule, fillTo(unit, LIMIT / 64)); // warm up
      let small = await timed(rule, fillTo(unit, LIMIT / 8));
      let large = await timed(rule, fillTo(unit, LIMIT));
      // 8× the input: linear is ~8×; quadratic would be 64× (the measured core harness: 57×, 78 s).
      const linear = (): boolean => large < 24 * small + 400;
      if (!linear()) {
        // Measured once more before failing: a busy machine once stalled one run (4 Mi newlines 3,656 ms
        // at load 9, 117 ms when run again); a quadratic rule is as slow the second time.
        small = Math.min(small, await timed(rule, fillTo(unit, LIMIT / 8)));
        large = Math.min(large, await timed(rule, fillTo(unit, LIMIT)));
      }
      assert.ok(linear(), `${JSON.stringify(unit.slice(0, 24))}: ${(LIMIT / 8).toLocaleString()} chars ${small.toFixed(0)} ms, ${LIMIT.toLocaleString()} chars ${large.toFixed(0)} ms`);
      assert.ok(large < 10_000, `${JSON.stringify(unit.slice(0, 24))}: the limit took ${large.toFixed(0)} ms`);
    }
  });
}

test('the whole detector at the content limit, on the densest text (every line a credential)', async () => {
  const text = fillTo(PLANTED.map((p) => p.text).join('\n'), LIMIT);
  const started = performance.now();
  const findings = await detectInText(text, 'code');
  const ms = performance.now() - started;
  assert.ok(findings.length > 10_000);
  assert.ok(ms < 20_000, `${ms.toFixed(0)} ms`);
});
