/**
 * The sync's door for secrets (issue 32): no value reaches the remote in any commit, a machine keeps its
 * own value when an edit comes back around it, "sync with its secret" is the one exception and is named,
 * and a value added after a sync is caught before the next push. Each test greps the remote's whole
 * history (`git log -p --all`) for every planted value.
 */
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { bareRepository } from './syncSupport.ts';
import { conversationsOf, recordsOf, seed } from './vaultSupport.ts';
import { FakeSecrets, PLANTED, plantedIn } from '../../support/fakeSecrets.ts';
import { placeholderFor } from '../../../src/core/secrets/findings.ts';

const SLOW = { timeout: 120_000 };

/** Two tokens of one kind: a file's URL with either is sent alike. */
const TOKENS = { current: PLANTED.githubToken, older: 'ghp_Older7tN2rXc7LwP0sJkYb3HdGf6TaE9uQ1j' };
const OLDER_TOKEN = TOKENS.older;

interface Pair {
  readonly a: Satchel;
  readonly b: Satchel;
  readonly remote: string;
  readonly secretsA: FakeSecrets;
}

/** A and B syncing through one bare repository, each with a detector that knows the planted values. */
async function withPair(fn: (pair: Pair) => Promise<void>, detector: () => FakeSecrets = () => new FakeSecrets()): Promise<void> {
  const root = tempDir('satchel-secret-sync-');
  const remote = bareRepository(root);
  const secretsA = detector();
  const secretsB = detector();
  const a = Satchel.open({ dataDir: join(root, 'a'), importWorker: false, secrets: secretsA });
  const b = Satchel.open({ dataDir: join(root, 'b'), importWorker: false, secrets: secretsB });
  a.sync.configure(remote);
  b.sync.configure(remote);
  try {
    await fn({ a, b, remote, secretsA });
  } finally {
    await a.close();
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** One machine syncing to a bare repository with the store's own findings and the background scan off: every snippet waits for its scan until something asks. */
async function withUnscanned(fn: (a: Satchel, remote: string) => Promise<void>): Promise<void> {
  const root = tempDir('satchel-secret-sync-unscanned-');
  const remote = bareRepository(root);
  const a = Satchel.open({ dataDir: join(root, 'a'), importWorker: false, secretsScan: false });
  a.sync.configure(remote);
  try {
    await fn(a, remote);
  } finally {
    await a.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Everything the remote ever held: every commit's patch and message, on every ref. */
function remoteHistory(remote: string): string {
  return execFileSync('git', ['--git-dir', remote, 'log', '-p', '--all', '--binary', '--format=%H%n%B'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

const aws = `import boto3\n\nclient = boto3.client(\n    "s3",\n    aws_access_key_id="${PLANTED.awsKeyId}",\n    aws_secret_access_key="${PLANTED.awsSecret}",\n)\n`;
const curl = `curl -H "Authorization: Bearer ${PLANTED.githubToken}" https://api.github.com/user\n`;

test('no planted value reaches the remote in any commit: code, name and description are sent with placeholders', SLOW, async () => {
  await withPair(async ({ a, remote }) => {
    const boto = await a.assets.writes.create(seed(aws, { name: 'S3 client', ext: 'py' }), TEST_WRITE);
    const named = await a.assets.writes.create(seed(curl, { name: `token ${PLANTED.slackToken}`, ext: 'sh' }), TEST_WRITE);
    a.assets.writes.edit(named.id, { description: `Stripe: ${PLANTED.stripeKey}` }, TEST_WRITE);
    const summary = await a.sync.sync();
    assert.equal(summary.sent, 2);
    assert.deepEqual(summary.secrets, { redacted: 2, withSecrets: [] });
    const history = remoteHistory(remote);
    assert.deepEqual(plantedIn(history), []);
    assert.ok(history.includes(placeholderFor({ label: 'AWS secret access key' })), 'the placeholder is what the remote holds');
    // This machine keeps its values.
    assert.equal(recordsOf(a).read(boto.id)?.content, aws);
    assert.equal(recordsOf(a).read(named.id)?.name, `token ${PLANTED.slackToken}`);
    assert.equal(a.sync.status().changed, 0);
    assert.deepEqual((await a.sync.sync()).sent, 0, 'the redacted form is the synced form: nothing to send again');
  });
});

test('an edit made elsewhere comes back around the placeholder: this machine keeps its own value and takes the edit', SLOW, async () => {
  await withPair(async ({ a, b, remote }) => {
    const boto = await a.assets.writes.create(seed(aws, { name: 'S3 client', ext: 'py' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    const onB = recordsOf(b).read(boto.id)!;
    assert.deepEqual(plantedIn(String(onB.content)), [], 'B never had the values: it holds the placeholders');
    // B edits another line; A edits a line too (a three-way merge on the redacted form).
    b.assets.writes.edit(boto.id, { content: { text: String(onB.content).replace('"s3"', '"dynamodb"') } }, TEST_WRITE);
    await b.sync.sync();
    a.assets.writes.edit(boto.id, { content: { text: `${aws}# reviewed\n` } }, TEST_WRITE);
    const merged = await a.sync.sync();
    assert.deepEqual(merged.notices, []);
    const expected = `${aws.replace('"s3"', '"dynamodb"')}# reviewed\n`;
    assert.equal(recordsOf(a).read(boto.id)?.content, expected, 'both edits, and A\'s own values');
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
    // B takes A's edit and keeps its placeholders; a sync after that has nothing to do on either side.
    await b.sync.sync();
    assert.deepEqual(plantedIn(String(recordsOf(b).read(boto.id)?.content)), []);
    assert.equal((await a.sync.sync()).received, 0);
  });
});

test('a conflict keeps the remote version here with this machine\'s values, and the conflict copy holds them too', SLOW, async () => {
  await withPair(async ({ a, b, remote }) => {
    const text = `line 1\nkey = "${PLANTED.stripeKey}"\nline 3\n`;
    const asset = await a.assets.writes.create(seed(text, { name: 'Stripe' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    const onB = String(recordsOf(b).read(asset.id)!.content);
    b.assets.writes.edit(asset.id, { content: { text: onB.replace('line 1', 'line one (B)') } }, TEST_WRITE);
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: text.replace('line 1', 'line 1 (A)') } }, TEST_WRITE);
    const summary = await a.sync.sync();
    assert.equal(summary.notices[0]?.notice, 'conflict');
    const copy = summary.notices[0]!.copy!;
    assert.equal(recordsOf(a).read(asset.id)?.content, text.replace('line 1', 'line one (B)'));
    assert.equal(recordsOf(a).read(copy)?.content, text.replace('line 1', 'line 1 (A)'));
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  });
});

test('a value added after an earlier sync is caught before the next push; a rename that adds one too', SLOW, async () => {
  await withPair(async ({ a, remote, secretsA }) => {
    const asset = await a.assets.writes.create(seed('const client = new Stripe(process.env.STRIPE_KEY);\n', { name: 'Stripe client' }), TEST_WRITE);
    await a.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: `const client = new Stripe("${PLANTED.stripeKey}");\n` }, name: `Stripe ${PLANTED.githubToken}` }, TEST_WRITE);
    const scans = secretsA.scans;
    const summary = await a.sync.sync();
    assert.ok(secretsA.scans > scans, 'the new text was scanned before it was sent');
    assert.equal(summary.secrets?.redacted, 1);
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  });
});

test('"sync with its secret" is the one exception, per snippet, and the summary names it', SLOW, async () => {
  await withPair(async ({ a, remote, secretsA }) => {
    const kept = await a.assets.writes.create(seed(curl, { name: 'GitHub API' }), TEST_WRITE);
    await a.assets.writes.create(seed(aws, { name: 'S3', ext: 'py' }), TEST_WRITE);
    secretsA.withSecrets.add(kept.id);
    const summary = await a.sync.sync();
    assert.deepEqual(summary.secrets, { redacted: 1, withSecrets: [{ id: kept.id, name: 'GitHub API' }] });
    assert.deepEqual(plantedIn(remoteHistory(remote)), ['githubToken']);
    assert.deepEqual(a.sync.status().last?.secrets, summary.secrets);
  });
});

test('a deleted snippet and its revisions leave nothing of a value on the remote', SLOW, async () => {
  await withPair(async ({ a, remote }) => {
    const asset = await a.assets.writes.create(seed('x = 1\n', { name: 'X' }), TEST_WRITE);
    a.assets.writes.edit(asset.id, { content: { text: `x = "${PLANTED.awsSecret}"\n` } }, TEST_WRITE);
    a.assets.writes.edit(asset.id, { content: { text: `x = "${PLANTED.slackToken}"\n` } }, TEST_WRITE);
    await a.sync.sync();
    a.assets.writes.delete(asset.id, TEST_WRITE);
    await a.sync.sync();
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  });
});

test('with the real detector (no detector given): six credential shapes never reach the remote, and come back as this machine\'s values', SLOW, async () => {
  const root = tempDir('satchel-secret-sync-real-');
  const remote = bareRepository(root);
  const a = Satchel.open({ dataDir: join(root, 'a'), importWorker: false });
  const b = Satchel.open({ dataDir: join(root, 'b'), importWorker: false });
  a.sync.configure(remote);
  b.sync.configure(remote);
  try {
    const text = [
      `aws_access_key_id = "${PLANTED.awsKeyId}"`,
      `aws_secret_access_key = "${PLANTED.awsSecret}"`,
      `curl -H "Authorization: Bearer ${PLANTED.githubToken}" https://api.github.com/user`,
      `const slack = new WebClient("${PLANTED.slackToken}");`,
      `const stripe = new Stripe("${PLANTED.stripeKey}");`,
      `DATABASE_URL=postgres://app:${PLANTED.postgresPassword}@db.internal:5432/app`,
      '',
    ].join('\n');
    const asset = await a.assets.writes.create(seed(text, { name: 'Credentials' }), TEST_WRITE);
    const sent = await a.sync.sync();
    assert.equal(sent.secrets?.redacted, 1);
    await b.sync.sync();
    const onB = String(recordsOf(b).read(asset.id)?.content);
    assert.deepEqual(plantedIn(onB), []);
    b.assets.writes.edit(asset.id, { content: { text: `# shared\n${onB}` } }, TEST_WRITE);
    await b.sync.sync();
    await a.sync.sync();
    assert.equal(recordsOf(a).read(asset.id)?.content, `# shared\n${text}`);
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  } finally {
    await a.close();
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('with the store\'s findings: "sync with its secret" set by the user, and a value marked Not a Secret, are sent as they are; a snippet still pending its scan is scanned before the push', SLOW, async () => {
  // The background scan is off: every snippet is still pending when the sync reads it.
  await withUnscanned(async (a, remote) => {
    const kept = await a.assets.writes.create(seed(`const slack = new WebClient("${PLANTED.slackToken}");\n`, { name: 'Slack' }), TEST_WRITE);
    const dismissed = await a.assets.writes.create(seed(`const stripe = new Stripe("${PLANTED.stripeKey}");\n`, { name: 'Stripe' }), TEST_WRITE);
    const pending = await a.assets.writes.create(seed(`curl -H "Authorization: Bearer ${PLANTED.githubToken}" https://api.github.com/user\n`, { name: 'GitHub' }), TEST_WRITE);
    assert.equal(a.assets.secrets.isCurrent(pending.id), false, 'not scanned yet');
    await a.assets.secrets.findingsNow(kept.id);
    a.assets.secrets.setSyncWithSecrets(kept.id, true);
    await a.assets.secrets.findingsNow(dismissed.id);
    a.assets.secrets.dismiss(dismissed.id, a.assets.secrets.storedFindings(dismissed.id)[0]!.sensitiveId);
    const summary = await a.sync.sync();
    assert.deepEqual(summary.secrets, { redacted: 1, withSecrets: [{ id: kept.id, name: 'Slack' }] });
    assert.deepEqual(plantedIn(remoteHistory(remote)).sort(), ['slackToken', 'stripeKey']);
  });
});

test('a sync scans the snippets not yet scanned first, a batch at a time, with progress; each read then answers from what is recorded; stopped there, the background scan is left as it was', SLOW, async () => {
  await withUnscanned(async (a, remote) => {
    for (let i = 0; i < 40; i++) await a.assets.writes.create(seed(i === 7 ? curl : `const n${i} = ${i};\n`, { name: `s${i}` }), TEST_WRITE);
    assert.equal(a.assets.secrets.progress().pending, 40);
    // Stopped while scanning: the sync stops, the background scan is not paused by it.
    const stop = new AbortController();
    await assert.rejects(a.sync.sync({ signal: stop.signal, onProgress: (p) => void (p.phase === 'scanning' && stop.abort()) }), (error: Error) => error.name === 'AbortError');
    assert.equal(a.assets.secrets.progress().paused, false);
    const phases: string[] = [];
    const scanned: Array<[number, number]> = [];
    const asked = mock.method(a.assets.secrets, 'findingsNow');
    const summary = await a.sync.sync({
      onProgress: (p) => {
        if (phases.at(-1) !== p.phase) phases.push(p.phase);
        if (p.phase === 'scanning') scanned.push([p.done ?? -1, p.total ?? -1]);
      },
    });
    assert.equal(summary.sent, 40);
    assert.ok(phases.indexOf('scanning') >= 0 && phases.indexOf('scanning') < phases.indexOf('merging'), phases.join(' '));
    const [done, total] = scanned.at(-1)!;
    assert.ok(total > 0 && total < 40 && done === total, `${done} of ${total}`);
    assert.equal(asked.mock.callCount(), 0, 'no snippet scanned one by one as the sync read it');
    assert.equal(a.assets.secrets.progress().pending, 0);
    assert.deepEqual(summary.secrets, { redacted: 1, withSecrets: [] });
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  });
});

test('a key pasted into a conversation never reaches the remote; a message added elsewhere comes back around it and this machine keeps its value', SLOW, async () => {
  await withPair(async ({ a, b, remote }) => {
    const made = a.conversations.create({ type: 'COPILOT', name: `Deploy ${PLANTED.githubToken}`, messages: [] } as never, false);
    a.conversations.createMessage(made.id, { role: 'USER', fragment: { string: { raw: `Why does this fail? AWS_SECRET_ACCESS_KEY=${PLANTED.awsSecret}` } } }, false);
    await a.sync.sync();
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
    await b.sync.sync();
    const onB = conversationsOf(b).read(made.id)!;
    assert.deepEqual(plantedIn(JSON.stringify(onB)), []);
    b.conversations.createMessage(made.id, { role: 'ASSISTANT', fragment: { string: { raw: 'Rotate that key.' } } }, false);
    b.conversations.update({ id: made.id, name: `${onB.name ?? ""} (done)` }, false);
    await b.sync.sync();
    await a.sync.sync();
    const onA = conversationsOf(a).read(made.id)!;
    assert.equal(onA.name, `Deploy ${PLANTED.githubToken} (done)`);
    assert.deepEqual(onA.messages.map((m) => m.text), [`Why does this fail? AWS_SECRET_ACCESS_KEY=${PLANTED.awsSecret}`, 'Rotate that key.']);
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);
  });
});

test('a conversation titled after its first question, the key cut short there, sends no piece of the key and keeps its title here', SLOW, async () => {
  await withPair(async ({ a, b, remote }) => {
    const title = `Why does AWS_SECRET_ACCESS_KEY=${PLANTED.awsSecret.slice(0, 24)}…`;
    const made = a.conversations.create({ type: 'COPILOT', name: title, messages: [] } as never, false);
    a.conversations.createMessage(made.id, { role: 'USER', fragment: { string: { raw: `Why does AWS_SECRET_ACCESS_KEY=${PLANTED.awsSecret} fail in CI?` } } }, false);
    await a.sync.sync();
    const history = remoteHistory(remote);
    for (let at = 0; at + 8 <= PLANTED.awsSecret.length; at++) assert.ok(!history.includes(PLANTED.awsSecret.slice(at, at + 8)), `the remote holds ${PLANTED.awsSecret.slice(at, at + 8)}`);
    await b.sync.sync();
    const onB = conversationsOf(b).read(made.id)!;
    assert.equal(onB.name, 'Why does AWS_SECRET_ACCESS_KEY=«secret: AWS secret access key»…');
    b.conversations.update({ id: made.id, name: `${onB.name ?? ''} (done)` }, false);
    await b.sync.sync();
    await a.sync.sync();
    assert.equal(conversationsOf(a).read(made.id)!.name, `${title} (done)`, 'this machine takes its own text back under the placeholder');
  });
});

test('a website whose URL holds a token goes with its placeholder; the other machine\'s edit comes back and this machine keeps the URL', SLOW, async () => {
  await withPair(async ({ a, b, remote }) => {
    const url = `https://raw.githubusercontent.com/acme/infra/main/deploy.sh?token=${PLANTED.githubToken}`;
    const made = await a.assets.writes.create(seed('#!/bin/sh\nset -eu\n./deploy.sh --stage prod\n', { name: 'Deploy', ext: 'sh' }), TEST_WRITE);
    a.assets.writes.createWebsite({ url, name: 'Source', asset: made.id }, TEST_WRITE);
    a.assets.writes.createWebsite({ url: 'https://example.com/runbook', name: 'Runbook', asset: made.id }, TEST_WRITE);
    // The same file with an older token: sent alike, and both come back.
    const older = `https://raw.githubusercontent.com/acme/infra/main/deploy.sh?token=${OLDER_TOKEN}`;
    a.assets.writes.createWebsite({ url: older, name: 'Source', asset: made.id }, TEST_WRITE);
    const summary = await a.sync.sync();
    assert.equal(summary.secrets?.redacted, 1);
    assert.deepEqual(plantedIn(remoteHistory(remote), TOKENS), []);
    await b.sync.sync();
    const onB = b.assets.labels.websitesOfAsset(made.id).map((site) => site.url).sort();
    assert.deepEqual(onB, ['https://example.com/runbook', 'https://raw.githubusercontent.com/acme/infra/main/deploy.sh?token=«secret: GitHub token»']);
    b.assets.writes.edit(made.id, { content: { text: '#!/bin/sh\nset -eu\n./deploy.sh --stage prod --verbose\n' } }, TEST_WRITE);
    await b.sync.sync();
    await a.sync.sync();
    assert.equal(a.assets.text(made.id), '#!/bin/sh\nset -eu\n./deploy.sh --stage prod --verbose\n', 'the edit came back');
    assert.deepEqual(a.assets.labels.websitesOfAsset(made.id).map((site) => site.url).sort(), ['https://example.com/runbook', url, older].sort(), 'this machine keeps its URLs');
    assert.deepEqual(plantedIn(remoteHistory(remote), TOKENS), []);
    // Settled: neither machine has anything to send or take.
    for (const machine of [a, b, a]) {
      const again = await machine.sync.sync();
      assert.deepEqual([again.sent, again.received], [0, 0]);
    }
    assert.deepEqual(a.assets.labels.websitesOfAsset(made.id).map((site) => site.url).sort(), ['https://example.com/runbook', url, older].sort());
  }, () => new FakeSecrets(TOKENS, { current: 'GitHub token', older: 'GitHub token' }));
});

test('a choice made after a sync (sync with its secret, then back; Not a Secret) is sent at the next sync, without an edit of the snippet', SLOW, async () => {
  const root = tempDir('satchel-secret-sync-choice-');
  const remote = bareRepository(root);
  const a = Satchel.open({ dataDir: join(root, 'a'), importWorker: false });
  a.sync.configure(remote);
  // The files of the remote's head (not its history: a value sent by choice stays there, as the user was told).
  const head = (): string => execFileSync('git', ['--git-dir', remote, 'grep', '-h', '-I', '-e', '.', 'main'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  try {
    const slack = await a.assets.writes.create(seed(`const slack = new WebClient("${PLANTED.slackToken}");\n`, { name: 'Slack' }), TEST_WRITE);
    const stripe = await a.assets.writes.create(seed(`const stripe = new Stripe("${PLANTED.stripeKey}");\n`, { name: 'Stripe' }), TEST_WRITE);
    await a.sync.sync();
    assert.deepEqual(plantedIn(remoteHistory(remote)), []);

    await a.assets.secrets.findingsNow(slack.id);
    a.assets.secrets.setSyncWithSecrets(slack.id, true);
    let summary = await a.sync.sync();
    assert.deepEqual(summary.secrets?.withSecrets, [{ id: slack.id, name: 'Slack' }]);
    assert.deepEqual(plantedIn(head()), ['slackToken'], 'the snippet went again, with its value');

    a.assets.secrets.setSyncWithSecrets(slack.id, false);
    await a.assets.secrets.findingsNow(stripe.id);
    a.assets.secrets.dismiss(stripe.id, a.assets.secrets.storedFindings(stripe.id)[0]!.sensitiveId);
    summary = await a.sync.sync();
    assert.deepEqual(summary.secrets?.withSecrets, []);
    assert.deepEqual(plantedIn(head()), ['stripeKey'], 'the head holds the dismissed value and no longer the one synced by choice');
  } finally {
    await a.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a snippet named after its first line, which holds a key, sends no piece of the key in its name or the commit message', SLOW, async () => {
  await withUnscanned(async (a, remote) => {
    const key = 'PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+';
    const named = await a.assets.writes.create(seed(`AWS_SECRET_ACCESS_KEY=${key}\nAWS_REGION=eu-west-1\n`, { ext: 'sh' }), TEST_WRITE);
    assert.match(named.name ?? '', new RegExp(`^AWS_SECRET_ACCESS_KEY=${key.slice(0, 20)}`), 'named after its first line, most of the key in it');
    const summary = await a.sync.sync();
    assert.equal(summary.secrets?.redacted, 1);
    const history = remoteHistory(remote);
    assert.match(history, /name: "AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…"/, 'the name is sent with the key\'s placeholder');
    for (let at = 0; at + 8 <= key.length; at++) assert.ok(!history.includes(key.slice(at, at + 8)), `the remote holds ${key.slice(at, at + 8)}`);
    assert.equal(a.assets.get(named.id).name, named.name, 'this machine keeps the name as it is');
  });
});
