import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Satchel } from '../../../src/core/satchel.ts';
import { Copilot } from '../../../src/core/conversations/copilot.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

test('the copilot prompt keeps attached snippets (file or fragment) first, then the newest messages the budget allows', async () => {
  const core = Satchel.open({ dataDir: tempDir('satchel-copilot-') });
  try {
    const raw = 'def snippet_under_test():\n    return 42\n';
    const asset = await core.assets.writes.create({
      type: 'SEEDED_ASSET',
      asset: { format: { file: { string: { raw } } } },
    } as never, { author: TEST_AUTHOR });
    const prompts: string[] = [];
    const copilot = new Copilot(
      core.conversations,
      () => ({ generate: async (prompt: string) => (prompts.push(prompt), 'ok') }),
      (id) => core.assets.text(id),
      { contextChars: 600 },
    );
    const first = await copilot.ask({ query: 'first question' });
    // Earlier messages that alone fill the budget: the oldest are the ones left out.
    for (let i = 0; i < 6; i++) await copilot.ask({ query: `message ${i} ${'x'.repeat(150)}`, conversation: first.conversation });
    await copilot.ask({ query: 'what does it return?', conversation: first.conversation, assets: [asset.id] });
    const prompt = prompts.at(-1)!;
    assert.ok(prompt.includes(`Snippet:\n${raw}`), 'the attached snippet, stored as a file, is in the prompt');
    assert.ok(prompt.indexOf('Snippet:') < prompt.indexOf('Conversation so far:'));
    assert.ok(prompt.includes('message 5'), 'the newest earlier message is kept');
    assert.ok(!prompt.includes('first question'), 'the oldest message is left out');
    assert.ok(prompt.length < 600 + 400, `the budget holds (${prompt.length} characters)`);
  } finally {
    await core.close();
  }
});
