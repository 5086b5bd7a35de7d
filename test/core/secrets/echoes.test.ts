/** A found value's echoes in a snippet's name and description (src/core/secrets/echoes.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ECHO_MIN_CHARS, withEchoes } from '../../../src/core/secrets/echoes.ts';
import { redactText, type SecretFinding } from '../../../src/core/secrets/findings.ts';
import { LIMITS } from '../../../src/core/limits.ts';

const KEY = 'PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+';
const CODE = `AWS_SECRET_ACCESS_KEY=${KEY}\nAWS_REGION=eu-west-1\n`;
const AT = CODE.indexOf(KEY);

function finding(field: SecretFinding['field'], start: number, end: number, label = 'AWS secret access key'): SecretFinding {
  return { ruleId: 'aws', category: 'SECRET_KEY', severity: 'HIGH', label, field, start, end, line: 1 };
}

const inCode = finding('code', AT, AT + KEY.length);

test('a name made from the code\'s first line, cut short, shows the value\'s opening: it is hidden', () => {
  const name = `AWS_SECRET_ACCESS_KEY=${KEY.slice(0, 35)}…`;
  const findings = withEchoes({ code: CODE, name }, [inCode]);
  assert.equal(findings.length, 2);
  const echo = findings[1]!;
  assert.deepEqual({ field: echo.field, start: echo.start, end: echo.end, label: echo.label, line: echo.line }, { field: 'name', start: 22, end: 57, label: 'AWS secret access key', line: 1 });
  assert.equal(redactText(name, findings.filter((f) => f.field === 'name')), 'AWS_SECRET_ACCESS_KEY=«secret: AWS secret access key»…');
});

test('the whole value, or an opening of it, anywhere in the description is hidden, on its own line', () => {
  const description = `Rotated in May.\nOld key: ${KEY}, its start ${KEY.slice(0, 12)} was in the logs.`;
  const echoes = withEchoes({ code: CODE, name: 'S3 credentials', description }, [inCode]).filter((f) => f.field === 'description');
  assert.deepEqual(echoes.map((f) => description.slice(f.start, f.end)), [KEY, KEY.slice(0, 12)]);
  assert.deepEqual(echoes.map((f) => f.line), [2, 2]);
});

test(`fewer than ${ECHO_MIN_CHARS} characters of a long value are left, a short value counts only whole`, () => {
  const short = 'Zx9-qPl';
  const code = `${CODE}PASSWORD=${short}\n`;
  const findings = [inCode, finding('code', code.indexOf(short), code.indexOf(short) + short.length, 'Password')];
  const name = `keys ${KEY.slice(0, ECHO_MIN_CHARS - 1)}… and ${short.slice(0, 6)} and ${short}`;
  const echoes = withEchoes({ code, name }, findings).filter((f) => f.field === 'name');
  assert.deepEqual(echoes.map((f) => name.slice(f.start, f.end)), [short]);
  assert.equal(echoes[0]!.label, 'Password');
});

test('a value already found in the name is not found twice; without findings or echoes the same list comes back', () => {
  const name = `key ${KEY}`;
  const inName = finding('name', 4, 4 + KEY.length);
  assert.deepEqual(withEchoes({ code: CODE, name }, [inCode, inName]), [inCode, inName]);
  const none: SecretFinding[] = [];
  assert.equal(withEchoes({ code: CODE, name }, none), none);
  const found = [inCode];
  assert.equal(withEchoes({ code: CODE, name: 'S3 credentials' }, found), found);
});

test('the longest opening at a place wins, and two values that begin alike are told apart', () => {
  const other = `${KEY.slice(0, 10)}DIFFERENT0123456789`;
  const code = `${CODE}SECOND=${other}\n`;
  const findings = [inCode, finding('code', code.indexOf(other), code.indexOf(other) + other.length, 'Second key')];
  const description = `${other} then ${KEY.slice(0, 20)}`;
  const echoes = withEchoes({ code, description }, findings).filter((f) => f.field === 'description');
  assert.deepEqual(echoes.map((f) => [description.slice(f.start, f.end), f.label]), [[other, 'Second key'], [KEY.slice(0, 20), 'AWS secret access key']]);
});

test('looking for echoes is linear in the description at its limit, whatever the values and the characters', () => {
  const limit = LIMITS.annotationChars;
  // 2,000 values sharing their first eight characters; a thousand short ones that begin alike; findings everywhere.
  const shared = Array.from({ length: 2000 }, (_, i) => `AKIAAAAA${i.toString(36).padStart(4, '0')}QXZ`);
  const shortValues = Array.from({ length: 1000 }, (_, i) => `a${i.toString(36)}`);
  const code = [...shared, ...shortValues].join('\n');
  let at = 0;
  const findings = [...shared, ...shortValues].map((value) => {
    const start = code.indexOf(value, at);
    at = start + value.length;
    return finding('code', start, start + value.length);
  });
  const units = ['AKIAAAAA', 'AKIAAAAAZ', 'AKIAAAAA0', 'a', 'ab', 'a1 ', '\n'];
  const timed = (description: string): number => {
    const started = performance.now();
    withEchoes({ code, description }, findings);
    return performance.now() - started;
  };
  for (const unit of units) {
    const fill = (n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    timed(fill(limit / 64));
    let small = timed(fill(limit / 8));
    let large = timed(fill(limit));
    const linear = (): boolean => large < 24 * small + 400;
    if (!linear()) {
      small = Math.min(small, timed(fill(limit / 8)));
      large = Math.min(large, timed(fill(limit)));
    }
    assert.ok(linear(), `${JSON.stringify(unit)}: ${small.toFixed(0)} ms for an eighth, ${large.toFixed(0)} ms at the limit`);
    assert.ok(large < 10_000, `${JSON.stringify(unit)}: the limit took ${large.toFixed(0)} ms`);
  }
});

test('an opening without a letter and a digit is no echo: a webhook found whole does not hide another URL\'s scheme and host', () => {
  const hook = 'https://hooks.slack.com/services/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';
  const code = `SLACK_HOOK=${hook}\n`;
  const found = [finding('code', 11, 11 + hook.length, 'Slack webhook URL')];
  const description = `See https://hooks.slack.com/services for setup; ours is ${hook.slice(0, 45)}…`;
  const echoes = withEchoes({ code, description }, found).filter((f) => f.field === 'description');
  assert.deepEqual(echoes.map((f) => description.slice(f.start, f.end)), [hook.slice(0, 45)]);
});
