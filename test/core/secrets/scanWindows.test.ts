import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergedFindings, OVERLAP_CHARS, windowsOf } from '../../../src/core/secrets/scanWindows.ts';
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import { PLANTED } from '../../support/fakeSecrets.ts';
import { LIMITS } from '../../../src/core/limits.ts';

test('windows cover the text, overlap by the overlap, and a text within one window is one', () => {
  assert.deepEqual(windowsOf(10, 10, 2), [[0, 10]]);
  assert.deepEqual(windowsOf(25, 10, 2), [[0, 10], [8, 18], [16, 25]]);
  const windows = windowsOf(100_000, 10_000, 1000);
  assert.equal(windows[0]![0], 0);
  assert.equal(windows.at(-1)![1], 100_000);
  for (let i = 1; i < windows.length; i++) assert.equal(windows[i - 1]![1] - windows[i]![0], 1000);
});

test('a value found in two windows is one finding, moved to its place in the whole text, with its line there', () => {
  const code = 'a\nb\nc\nSECRET\nd';
  const start = code.indexOf('SECRET');
  const finding = { ruleId: 'r', category: 'SECRET' as const, severity: 'HIGH' as const, label: 'x', field: 'code' as const, line: 1 };
  const merged = mergedFindings(code, [[0, 10], [4, 14]], [[{ ...finding, start, end: start + 6 }], [{ ...finding, start: start - 4, end: start + 2 }]]);
  assert.deepEqual(merged.map((f) => [f.start, f.end, f.line]), [[start, start + 6, 4]]);
});

test('a text past the content limit is scanned a window at a time: values at its start, across a window border and at its end are all found, at their places', { timeout: 120_000 }, async () => {
  const scanner = new SecretScanner();
  try {
    const filler = 'const value = compute(alpha, beta, gamma); // padding\n';
    const border = LIMITS.contentChars - 20;
    const head = `const stripe = new Stripe("${PLANTED.stripeKey}");\n`;
    let code = head + filler.repeat(Math.ceil((border - head.length) / filler.length));
    code = code.slice(0, border) + `\nconst token = "${PLANTED.githubToken}";\n`;
    code += filler.repeat(Math.ceil(LIMITS.contentChars / filler.length)) + `const slack = "${PLANTED.slackToken}";\n`;
    assert.ok(code.length > LIMITS.contentChars + OVERLAP_CHARS && windowsOf(code.length).length >= 2);
    const found = await scanner.scan({ code, name: `key ${PLANTED.awsKeyId}` });
    const values = found.filter((f) => f.field === 'code').map((f) => code.slice(f.start, f.end));
    for (const value of [PLANTED.stripeKey, PLANTED.githubToken, PLANTED.slackToken]) assert.equal(values.filter((v) => v.includes(value)).length, 1, value);
    const github = found.find((f) => code.slice(f.start, f.end).includes(PLANTED.githubToken))!;
    assert.equal(github.line, code.slice(0, github.start).split('\n').length);
    assert.ok(found.some((f) => f.field === 'name'), 'the name is scanned too');
  } finally {
    scanner.dispose();
  }
});
