/**
 * The language-model tools' and @satchel's door for secrets (issue 32): the operations they share read
 * through the host's agent view, so every summary, detail and saved check shows placeholders, a search
 * for a value finds nothing, an agent's save of a credential is told it was kept and flagged, and an
 * update that writes a placeholder back keeps the stored value. Run against a real host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { seed } from '../../core/sync/vaultSupport.ts';
import { FakeSecrets, PLANTED, plantedIn } from '../../support/fakeSecrets.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { SnippetOperations } from '../../../src/extension/agents/snippetOperations.ts';
import type { ServerController } from '../../../src/extension/serverController.ts';
import { saveResult, updateResult } from '../../../src/extension/agents/writeToolText.ts';
import { groundingPrompt, snippetMarkdown, resultsMarkdown } from '../../../src/extension/agents/snippetText.ts';
import { authorOf } from '../../../src/core/history/authors.ts';

const TOOL = authorOf('agent', 'copilot');

test('every read the agents share shows placeholders; a search for a value finds nothing; writes keep the values and say so', { timeout: 60_000 }, async () => {
  const t = await startTestServer({ secrets: new FakeSecrets() });
  const client = new SatchelClient(t.url);
  const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
  // The operations need only the controller's connection and application (the vscode side is not run here).
  const controller = { connection: { client }, application: () => Promise.resolve(application) };
  const operations = new SnippetOperations(controller as unknown as ServerController);
  const seen: string[] = [];
  const keep = <T>(value: T): T => {
    seen.push(JSON.stringify(value));
    return value;
  };
  try {
    const aws = `import boto3\nclient = boto3.client("s3", aws_access_key_id="${PLANTED.awsKeyId}", aws_secret_access_key="${PLANTED.awsSecret}")\n`;
    const s3 = await t.core.assets.writes.create(seed(aws, { name: 'S3 client', ext: 'py' }), TEST_WRITE);
    const slack = await t.core.assets.writes.create(seed(`const slack = new WebClient("${PLANTED.slackToken}");\n`, { name: `Slack ${PLANTED.githubToken}` }), TEST_WRITE);
    // A website whose URL holds a token (a private raw file's), and one that holds none.
    for (const url of [`https://raw.githubusercontent.com/acme/infra/main/s3.py?token=${PLANTED.githubToken}`, 'https://boto3.amazonaws.com/v1/documentation/api/latest/index.html']) {
      t.core.assets.writes.associate(s3.id, 'website', t.core.assets.labels.createWebsite({ url, name: 'source' }).id, TEST_WRITE);
    }

    const found = keep(await operations.search({ query: 'client' }));
    assert.ok(found.some((s) => s.id === s3.id));
    keep(resultsMarkdown('client', found));
    const details = keep(await operations.searchDetails({ query: 'client' }));
    keep(groundingPrompt('how do I make an S3 client?', details));
    const got = keep(await operations.get(s3.id));
    assert.match(got.content, /«secret: AWS secret access key»/);
    assert.equal(got.websites.length, 2);
    assert.ok(got.websites.includes('https://boto3.amazonaws.com/v1/documentation/api/latest/index.html'));
    assert.ok(got.websites.some((url) => url.includes('«secret: GitHub token»')), JSON.stringify(got.websites));
    keep(snippetMarkdown(got));
    keep(await operations.recent());
    keep(await operations.get(slack.id));
    keep(await operations.isSaved(aws));
    for (const value of Object.values(PLANTED)) assert.deepEqual(keep(await operations.search({ query: value })), [], 'a value finds nothing');

    const saved = keep(saveResult(await operations.agentSave({ content: `const stripe = new Stripe("${PLANTED.stripeKey}");\nexport default stripe;\n`, name: 'Stripe' }, TOOL)));
    assert.equal(saved.status, 'saved');
    assert.match(saved.saved ? (saved.secrets ?? '') : '', /Stripe secret key \(line 1\).*kept on this machine/);

    const update = { id: s3.id, expectedRevision: got.revision!, content: `# S3\n${got.content}` };
    const updated = keep(updateResult(update, await operations.update(update, TOOL)));
    assert.equal(updated.status, 'updated');
    assert.equal(t.core.assets.text(s3.id), `# S3\n${aws}`, 'the stored values stayed');
    assert.deepEqual(plantedIn(seen.join('\n')), []);
  } finally {
    client.dispose();
    await t.close();
  }
});
