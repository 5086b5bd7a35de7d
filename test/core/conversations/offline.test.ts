import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleTitle, MAX_TITLE_WORDS, UNTITLED } from '../../../src/core/conversations/titles.ts';
import { extractiveSummary } from '../../../src/core/conversations/summaries.ts';
import { deployment, failingTest, fixtures, schemaDesign } from '../../support/conversationFixtures.ts';

function assertTitleShape(title: string): void {
  assert.ok(title.length >= 8 && title.length <= 80, `title length ${title.length}: ${title}`);
  assert.ok(title.split(' ').length <= MAX_TITLE_WORDS, title);
  assert.match(title, /^[A-Z]/);
  assert.doesNotMatch(title, /[?.,]$/);
  assert.doesNotMatch(title, /\b(can you|help me|please|I'm)\b/i, 'filler is stripped');
}

test('an error and a code identifier make "<Error> in <identifier>"', () => {
  const title = ruleTitle(failingTest.messages);
  assert.equal(title, 'TypeError in UserService.createUser');
});

test('otherwise the first intent sentence is cut, stripped of filler and articles, at most ten words', () => {
  const schema = ruleTitle(schemaDesign.messages);
  assertTitleShape(schema);
  assert.match(schema, /Postgres/);
  assert.match(schema, /schema/i);
  assert.match(schema, /multi-tenant/);
  assert.doesNotMatch(schema, /\b(a|the)\b/);

  const deploy = ruleTitle(deployment.messages);
  assertTitleShape(deploy);
  for (const term of ['Deploy', 'Next.js', 'ECS', 'zero downtime']) assert.ok(deploy.includes(term), `${term} in ${deploy}`);
  assert.doesNotMatch(deploy, /\bour\b/, 'possessives are dropped');
  assertTitleShape(ruleTitle(failingTest.messages));
});

test('titles of edge cases: no messages, only an assistant message, a long rambling first message', () => {
  assert.equal(ruleTitle([]), UNTITLED);
  assert.equal(ruleTitle([{ role: 'USER', text: '```\nconst x = 1;\n```' }]), UNTITLED);
  const assistantOnly = ruleTitle([{ role: 'ASSISTANT', text: 'Use a read replica for the reporting queries.' }]);
  assert.match(assistantOnly, /read replica/);
  const long = ruleTitle([
    {
      role: 'USER',
      text: 'I need to migrate a very large legacy MySQL database with hundreds of tables and stored procedures over to Aurora without any downtime at all',
    },
  ]);
  assert.ok(long.split(' ').length <= MAX_TITLE_WORDS, long);
  assert.match(long, /^Migrate/);
});

test('summaries have a Problem, Key points from the answer, and an Outcome when the user reports one', () => {
  for (const fixture of fixtures) {
    const summary = extractiveSummary(fixture.messages);
    assert.ok(summary.length >= 120 && summary.length <= 900, `${fixture.name}: ${summary.length} chars`);
    const lines = summary.split('\n');
    assert.match(lines[0]!, /^Problem: /, fixture.name);
    assert.match(lines[1]!, /^Key points: /, fixture.name);
    assert.match(lines[2]!, /^Outcome: /, fixture.name);
    assert.doesNotMatch(lines[1]!, /\?/, 'questions are not key points');
    assert.doesNotMatch(summary, /```|jest\.fn\(\)/, 'code blocks are not sentences');
  }
});

test('summary content: the key terms of each conversation are kept', () => {
  const jest = extractiveSummary(failingTest.messages);
  assert.match(jest, /Problem: .*UserService\.createUser.*TypeError/s);
  assert.match(jest, /Key points: .*jest\.(mock|unstable_mockModule)/);
  assert.match(jest, /Outcome: .*fixed it/);

  const schema = extractiveSummary(schemaDesign.messages);
  assert.match(schema, /Problem: .*multi-tenant invoicing/);
  assert.match(schema, /Key points: .*tenant_id/);
  assert.match(schema, /Outcome: .*row level security/);

  const deploy = extractiveSummary(deployment.messages);
  assert.match(deploy, /Problem: .*ECS.*zero downtime/);
  assert.match(deploy, /Key points: .*minimumHealthyPercent/);
  assert.match(deploy, /Outcome: .*no errors/);
});

test('no Outcome when the last user message does not report a resolution', () => {
  const summary = extractiveSummary([
    ...deployment.messages.slice(0, 2),
    { role: 'USER', text: 'Where do I set the deregistration delay?' },
  ]);
  assert.doesNotMatch(summary, /Outcome:/);
  assert.match(summary, /Key points:/);
});
