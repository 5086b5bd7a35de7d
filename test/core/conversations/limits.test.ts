/**
 * A copilot question is a message (docs/limits.md): one over the message limit is refused before a
 * conversation is made for it, so nothing is stored; a question at the limit is kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Copilot } from '../../../src/core/conversations/copilot.ts';
import { LIMITS, LimitExceededError } from '../../../src/core/limits.ts';
import { withCore } from '../../support/helpers.ts';

test('a question over the message limit is refused with nothing stored; one at the limit is kept', async () => {
  await withCore(async (core) => {
    const copilot = new Copilot(core.conversations, () => undefined, () => undefined);
    await assert.rejects(copilot.ask({ query: 'q'.repeat(LIMITS.messageChars + 1) }), (error: unknown) => {
      assert.ok(error instanceof LimitExceededError);
      assert.equal(error.kind, 'messageChars');
      return true;
    });
    assert.equal(core.conversations.identifiers().iterable.length, 0, 'no conversation was made for it');
    assert.equal(core.conversations.reads.allMessages(false).collect().iterable.length, 0);

    const kept = await copilot.ask({ query: 'q'.repeat(LIMITS.messageChars) });
    assert.equal(core.conversations.reads.messagesOf(kept.conversation, true).collect().iterable[0]?.fragment?.string?.raw?.length, LIMITS.messageChars);
  });
});
