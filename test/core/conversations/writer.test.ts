import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConversationWriter } from '../../../src/core/conversations/writer.ts';
import { ruleTitle } from '../../../src/core/conversations/titles.ts';
import { extractiveSummary } from '../../../src/core/conversations/summaries.ts';
import type { GenerateOptions, TextGenerator } from '../../../src/core/models/textGenerator.ts';
import { ModelService } from '../../../src/core/models/modelService.ts';
import { Satchel } from '../../../src/core/satchel.ts';
import { ConversationService } from '../../../src/core/conversations/conversationService.ts';
import { tempDir } from '../../support/helpers.ts';
import { rmSync } from 'node:fs';
import { deployment, schemaDesign } from '../../support/conversationFixtures.ts';

/** A stand-in for a loaded model: answers with `reply` (or a function of the prompt) after `delayMs`. */
class FakeGenerator implements TextGenerator {
  readonly calls: Array<{ prompt: string; options: GenerateOptions }> = [];
  private readonly reply: (prompt: string) => string;
  private readonly delayMs: number;
  aborted = false;

  constructor(reply: string | ((prompt: string) => string), delayMs = 0) {
    this.reply = typeof reply === 'string' ? () => reply : reply;
    this.delayMs = delayMs;
  }

  generate(prompt: string, options: GenerateOptions): Promise<string> {
    this.calls.push({ prompt, options });
    options.signal?.addEventListener('abort', () => (this.aborted = true));
    return new Promise((resolve) => setTimeout(() => resolve(this.reply(prompt)), this.delayMs).unref());
  }
}

const fast = { titleTimeoutMs: 200, summaryTimeoutMs: 200 };

test('with a model: its title and summary are used, asked for with a JSON schema and a time limit', async () => {
  const generator = new FakeGenerator((prompt) =>
    prompt.includes('"title"')
      ? JSON.stringify({ title: 'Zero-downtime ECS deploys for Next.js' })
      : JSON.stringify({ summary: 'ECS dropped requests during deploys; raising minimumHealthyPercent and adding a health route fixed it.' }),
  );
  const writer = new ConversationWriter(() => generator, fast);
  const title = await writer.title(deployment.messages);
  assert.deepEqual(title, { text: 'Zero-downtime ECS deploys for Next.js', generator: 'model' });
  const summary = await writer.summary(deployment.messages);
  assert.equal(summary.generator, 'model');
  assert.match(summary.text, /minimumHealthyPercent/);
  assert.equal(generator.calls.length, 2);
  for (const call of generator.calls) {
    assert.equal(call.options.timeoutMs, 200);
    assert.equal(typeof call.options.jsonSchema, 'object');
    assert.ok(call.prompt.includes('AWS ECS'), 'the prompt carries the conversation');
  }
  assert.deepEqual((generator.calls[0]!.options.jsonSchema as { required: string[] }).required, ['title']);
});

test('a slow model times out (and is aborted): the offline method answers', async () => {
  const generator = new FakeGenerator(JSON.stringify({ title: 'Too late' }), 2_000);
  const writer = new ConversationWriter(() => generator, fast);
  const started = Date.now();
  const title = await writer.title(schemaDesign.messages);
  assert.ok(Date.now() - started < 1_500, 'did not wait for the model');
  assert.deepEqual(title, { text: ruleTitle(schemaDesign.messages), generator: 'rule' });
  assert.equal(generator.aborted, true);
});

test('junk from the model falls back: not JSON, wrong key, empty, ungrounded, runaway repetition', async () => {
  const junk = [
    'Sure! Here is a title: ECS deploys',
    JSON.stringify({ name: 'ECS deploys' }),
    JSON.stringify({ title: '' }),
    JSON.stringify({ title: 'Banana bread recipe with walnuts' }),
    JSON.stringify({ title: '<|im_end|>' }),
  ];
  for (const reply of junk) {
    const writer = new ConversationWriter(() => new FakeGenerator(reply), fast);
    assert.deepEqual(await writer.title(deployment.messages), { text: ruleTitle(deployment.messages), generator: 'rule' }, reply);
  }
  const summaryJunk = [JSON.stringify({ summary: 'ok' }), JSON.stringify({ summary: 'deploy '.repeat(40) }), '{"summary": 4}'];
  for (const reply of summaryJunk) {
    const writer = new ConversationWriter(() => new FakeGenerator(reply), fast);
    const summary = await writer.summary(deployment.messages);
    assert.deepEqual(summary, { text: extractiveSummary(deployment.messages), generator: 'extractive' }, reply);
  }
});

test('a model that throws falls back', async () => {
  const failing: TextGenerator = { generate: () => Promise.reject(new Error('context overflow')) };
  const writer = new ConversationWriter(() => failing, fast);
  assert.equal((await writer.summary(deployment.messages)).generator, 'extractive');
});

test('through the service: rename uses the loaded model; summarize records which method wrote it', async () => {
  class LoadedModels extends ModelService {
    override textGenerator(): TextGenerator {
      return new FakeGenerator((prompt) =>
        prompt.includes('"title"') ? JSON.stringify({ title: 'Multi-tenant Postgres schema design' }) : 'not json',
      );
    }
  }
  const dataDir = tempDir();
  const core = Satchel.open({ dataDir });
  try {
    const models = new LoadedModels(core.context, dataDir, core.classifier, {});
    const service = new ConversationService(core.context, models);
    const created = service.create(
      {
        type: 'COPILOT',
        messages: schemaDesign.messages.map((m) => ({ role: m.role as 'USER', fragment: { string: { raw: m.text } } })),
      },
      true,
    );
    const renamed = await service.rename(created.id, true);
    assert.equal(renamed.name, 'Multi-tenant Postgres schema design');
    const output = await service.summarize(created.id, undefined);
    const annotation = service.records.annotation(output.annotation.id);
    assert.equal(annotation.text, extractiveSummary(schemaDesign.messages), 'junk summary fell back');
    assert.equal(core.context.records.get<{ generator: string }>('annotation', output.annotation.id)?.generator, 'extractive');
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
