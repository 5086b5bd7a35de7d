/** Replace Secret with Placeholder: values become named tab stops; the rest of the snippet inserts as before. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { highestTabStop, replaceWithTabStops, tabStopName, type ValueSpan } from '../../../src/extension/secrets/secretTabStops.ts';
import { literalText, renderSnippet } from '../../../src/core/snippets/snippetSyntax.ts';

const span = (text: string, value: string, label: string, category = 'SECRET_KEY', from = 0): ValueSpan => {
  const start = text.indexOf(value, from);
  assert.notEqual(start, -1);
  return { start, end: start + value.length, label, category };
};

test('tab stop names say what goes there, in the shape of an environment variable', () => {
  assert.equal(tabStopName('AWS secret access key', 'SECRET_KEY'), 'AWS_SECRET_ACCESS_KEY');
  assert.equal(tabStopName('Slack bot token (xoxb-…)', 'ACCESS_TOKEN'), 'SLACK_BOT_TOKEN_XOXB', 'punctuation becomes one underscore');
  assert.equal(tabStopName('', 'PRIVATE_KEY'), 'PRIVATE_KEY', 'no label: the category');
  assert.equal(tabStopName('«»', 'ZZZ'), 'ZZZ');
  assert.equal(tabStopName('', ''), 'SECRET');
});

test('plain code becomes a template: the value a named tab stop, every `$`, `}` and `\\` escaped', () => {
  const code = 'export AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG"\necho "$HOME" \\\n  ${PATH}\n';
  const result = replaceWithTabStops(code, false, [span(code, 'wJalrXUtnFEMI/K7MDENG', 'AWS secret access key')]);
  assert.equal(result.replaced, 1);
  assert.equal(result.text, 'export AWS_SECRET_ACCESS_KEY="${1:AWS_SECRET_ACCESS_KEY}"\necho "\\$HOME" \\\\\n  \\${PATH\\}\n');
  // Inserting it gives the code back with the name where the value was.
  assert.equal(renderSnippet(result.text), code.replace('wJalrXUtnFEMI/K7MDENG', 'AWS_SECRET_ACCESS_KEY'));
  assert.ok(!result.text.includes('wJalrXUtnFEMI'));
});

test('the same value twice is one tab stop; two values of one kind get two names', () => {
  const code = 'a = "tok_1"\nb = "tok_2"\nc = "tok_1"\n';
  const spans = [span(code, 'tok_1', 'API token', 'API_TOKEN'), span(code, 'tok_2', 'API token', 'API_TOKEN'), span(code, 'tok_1', 'API token', 'API_TOKEN', 10)];
  const result = replaceWithTabStops(code, false, spans.reverse());
  assert.equal(result.text, 'a = "${1:API_TOKEN}"\nb = "${2:API_TOKEN_2}"\nc = "$1"\n');
  assert.equal(result.replaced, 3);
});

test('a template keeps its own tab stops and escapes; new ones are numbered after the highest', () => {
  const body = 'client(${1:region}, "sk_live_abc", \\$x, ${3|a,b|}, $2)';
  assert.equal(highestTabStop(body), 3);
  assert.equal(highestTabStop('\\$9 and \\${8:x}'), 0, 'escaped dollars are not tab stops');
  const result = replaceWithTabStops(body, true, [span(body, 'sk_live_abc', 'Stripe secret key', 'API_KEY')]);
  assert.equal(result.text, 'client(${1:region}, "${4:STRIPE_SECRET_KEY}", \\$x, ${3|a,b|}, $2)');
});

test('spans outside the text or overlapping an earlier one are left; nothing to do leaves the text as it inserts', () => {
  const code = 'key = "abcdef" $';
  const result = replaceWithTabStops(code, false, [span(code, 'abcdef', 'key'), span(code, 'cde', 'inner'), { start: 50, end: 60, label: 'x', category: 'SECRET' }]);
  assert.equal(result.text, 'key = "${1:KEY}" \\$');
  assert.equal(result.replaced, 1);
  const none = replaceWithTabStops(code, false, []);
  assert.equal(literalText(none.text), code);
});
