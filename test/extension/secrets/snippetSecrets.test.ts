/** What the editor reads of a snippet's recorded secrets, and what it shows of them (never a value). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import { describeSecret, hideSecrets, lineAt, locateSecrets, MAX_SPANS, secretKinds, secretsOf, type SnippetSecret } from '../../../src/extension/secrets/snippetSecrets.ts';

const KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const CODE = ['import boto3', '', `s3 = boto3.client("s3", aws_access_key_id="${KEY_ID}",`, `    aws_secret_access_key="${SECRET}")`, ''].join('\n');

type Sensitives = NonNullable<Asset['sensitives']>;
type Sensitive = Sensitives['iterable'][number];

function sensitive(id: string, name: string, category: Sensitive['category'], value: string, start?: number): Sensitive {
  const at = start ?? CODE.indexOf(value);
  return {
    id,
    created: { value: '2026-11-28T00:00:00.000Z' },
    updated: { value: '2026-11-28T00:00:00.000Z' },
    asset: { id: 'a1' } as Sensitive['asset'],
    text: value,
    mechanism: 'AUTOMATIC',
    category,
    severity: 'HIGH',
    name,
    description: `${name} found by secretlint`,
    metadata: { match: { group: { text: value, start: at, end: at + value.length } } },
  } as Sensitive;
}

const asset = (...iterable: Sensitive[]): Pick<Asset, 'sensitives'> => ({ sensitives: { iterable } });

test('reads the interface\'s sensitives: kind, category, severity, the span and its line, in the order of the code', () => {
  const secrets = secretsOf(asset(sensitive('s2', 'AWS secret access key', 'SECRET_KEY', SECRET), sensitive('s1', 'AWS access key ID', 'ACCESS_KEY', KEY_ID)), CODE);
  assert.deepEqual(
    secrets.map((s) => [s.id, s.label, s.category, s.severity, s.line, CODE.slice(s.start, s.end)]),
    [
      ['s1', 'AWS access key ID', 'ACCESS_KEY', 'HIGH', 3, KEY_ID],
      ['s2', 'AWS secret access key', 'SECRET_KEY', 'HIGH', 4, SECRET],
    ],
  );
  assert.deepEqual(secretsOf({}, CODE), [], 'no sensitives: nothing');
});

test('a span that does not hold the value in the code is looked up by it; a value only in the name or description has no line', () => {
  const stale = sensitive('s1', 'AWS secret access key', 'SECRET_KEY', SECRET, CODE.length + 10);
  const [found] = secretsOf(asset(stale), CODE);
  assert.equal(found!.line, 4);
  assert.equal(CODE.slice(found!.start, found!.end), SECRET);
  const inName = sensitive('s2', 'GitHub token', 'ACCESS_TOKEN', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 2);
  const [elsewhere] = secretsOf(asset(inName), CODE);
  assert.equal(elsewhere!.line, undefined);
  assert.match(describeSecret(elsewhere!), /in its name or description/);
});

test('what people read names the kind and the line, never the value', () => {
  const secrets = secretsOf(asset(sensitive('s1', 'AWS access key ID', 'ACCESS_KEY', KEY_ID), sensitive('s2', 'AWS secret access key', 'SECRET_KEY', SECRET)), CODE);
  const lines = secrets.map(describeSecret);
  assert.deepEqual(lines, ['AWS access key ID · access key · line 3', 'AWS secret access key · secret key · line 4']);
  assert.equal(secretKinds([...secrets, ...secrets]), 'AWS access key ID, AWS secret access key', 'each kind once');
  for (const text of [...lines, secretKinds(secrets)]) {
    assert.ok(!text.includes(KEY_ID) && !text.includes(SECRET));
  }
});

test('hideSecrets shows the placeholder wherever a value is, the longest value first', () => {
  const secrets = secretsOf(asset(sensitive('s1', 'AWS access key ID', 'ACCESS_KEY', KEY_ID), sensitive('s2', 'AWS secret access key', 'SECRET_KEY', SECRET)), CODE);
  const shown = hideSecrets(`${CODE}\n# again: ${SECRET}`, secrets);
  assert.ok(!shown.includes(KEY_ID) && !shown.includes(SECRET));
  assert.equal(shown.split('«secret: AWS secret access key»').length - 1, 2);
  assert.match(shown, /aws_access_key_id="«secret: AWS access key ID»"/);
  const nested: SnippetSecret[] = [
    { ...secrets[0]!, value: 'abc', label: 'short' },
    { ...secrets[0]!, value: 'xxabcxx', label: 'long' },
  ];
  assert.equal(hideSecrets('1 xxabcxx 2 abc', nested), '1 «secret: long» 2 «secret: short»');
});

test('locateSecrets finds each value in the document as it is now, every occurrence, overlaps once', () => {
  const secrets = secretsOf(asset(sensitive('s1', 'AWS access key ID', 'ACCESS_KEY', KEY_ID), sensitive('s2', 'AWS secret access key', 'SECRET_KEY', SECRET)), CODE);
  const edited = `# a line added above\n${CODE}print("${SECRET}")\n`;
  const spans = locateSecrets(edited, secrets);
  assert.deepEqual(
    spans.map((span) => [span.secret.id, edited.slice(span.start, span.end)]),
    [
      ['s1', KEY_ID],
      ['s2', SECRET],
      ['s2', SECRET],
    ],
  );
  assert.equal(lineAt(edited, spans[0]!.start), 4);
  assert.deepEqual(locateSecrets('nothing here', secrets), []);
  const overlapping: SnippetSecret[] = [secrets[1]!, { ...secrets[1]!, id: 's3', value: SECRET.slice(0, 10) }];
  assert.equal(locateSecrets(CODE, overlapping).length, 1, 'a value inside another is one mark');
});

test('locateSecrets is bounded and linear on a large document', () => {
  const secrets: SnippetSecret[] = [{ id: 's', category: 'SECRET', severity: 'HIGH', label: 'token', value: 'tok_123', start: 0, end: 7, line: 1 }];
  const large = 'tok_123 '.repeat(200_000);
  const started = performance.now();
  assert.equal(locateSecrets(large, secrets).length, MAX_SPANS);
  const miss = 'a'.repeat(1 << 20);
  assert.equal(locateSecrets(miss, [{ ...secrets[0]!, value: `${'a'.repeat(40)}b` }]).length, 0);
  assert.ok(performance.now() - started < 2_000, 'a megabyte of text is searched in well under a second or two');
});
