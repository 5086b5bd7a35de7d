/**
 * Agent changes in core: every write an agent makes is marked (created, changed, deleted) with the
 * revisions before and after it, until the user accepts or reverts it; agents' updates and deletes
 * are conditional on the revision they read; while agent writes wait for review they are
 * proposals that count for nothing until accepted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import { ForbiddenError, InvalidInputError, NotFoundError, RevisionConflictError } from '../../../src/core/errors.ts';
import { LimitExceededError, LIMITS } from '../../../src/core/limits.ts';
import { ChangedSinceError } from '../../../src/core/agents/agentChanges.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const claude = authorOf('mcp', 'Claude Code');
const cursor = authorOf('mcp', 'Cursor');
const copilot = authorOf('agent', 'VS Code agent');
const user = authorOf('vscode', 'Satchel for VS Code');

const CODE = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';

async function userSnippet(core: Satchel, text = CODE, name = 'add'): Promise<{ id: string; revision: string }> {
  const asset = await core.assets.writes.create({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: text }, metadata: { ext: 'ts' } } }, metadata: { name } } }, { author: user });
  return { id: asset.id, revision: core.history.current(asset.id) };
}

function textOf(core: Satchel, id: string): string | undefined {
  return core.assets.text(id);
}

test("an agent's save, update and delete are marked with the revisions around them; the user's writes are not", async () => {
  await withCore(async (core) => {
    const mine = await userSnippet(core);
    assert.equal(core.agentChanges.list().total, 0, "the user's own create is not an agent change");

    const saved = await core.agentWrites.save({ content: 'def twice(x):\n    return 2 * x\n', name: 'twice', tags: ['math'], language: 'python' }, claude);
    assert.equal(saved.status, 'applied');
    assert.ok(saved.asset && saved.change && saved.revision);
    const updated = core.agentWrites.update(mine.id, { content: `${CODE}// checked\n` }, { author: cursor, expectedRevision: mine.revision });
    assert.equal(updated.status, 'applied');
    assert.notEqual(updated.revision, mine.revision);
    assert.equal(textOf(core, mine.id), `${CODE}// checked\n`);

    const list = core.agentChanges.list();
    assert.equal(list.reviewing, false);
    assert.deepEqual(
      list.changes.map((c) => [c.kind, c.status, c.agent.name, c.name, c.asset]),
      [
        ['changed', 'applied', 'Cursor', 'add', mine.id],
        ['created', 'applied', 'Claude Code', 'twice', saved.asset],
      ],
    );
    const changed = list.changes[0]!;
    assert.equal(changed.before, mine.revision);
    assert.equal(changed.after, updated.revision);
    assert.equal(list.changes[1]!.before, null);

    // The user's own edit after it leaves the mark as it is.
    core.assets.writes.edit(saved.asset, { name: 'twice (python)' }, { author: user });
    assert.equal(core.agentChanges.list().changes.find((c) => c.asset === saved.asset)?.name, 'twice (python)', 'the current name is listed');

    const gone = core.agentWrites.delete(mine.id, { author: copilot, expectedRevision: updated.revision! });
    assert.equal(gone.status, 'applied');
    assert.equal(core.assets.exists(mine.id), false);
    const kinds = core.agentChanges.list().changes.map((c) => [c.kind, c.agent.name]);
    assert.deepEqual(kinds, [
      ['deleted', 'VS Code agent'],
      ['changed', 'Cursor'],
      ['created', 'Claude Code'],
    ]);
  });
});

test("one agent's consecutive writes to a snippet share a change; another agent's, or one after the user's write, get their own", async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    const first = core.agentWrites.update(a.id, { name: 'add two numbers' }, { author: claude, expectedRevision: a.revision });
    const second = core.agentWrites.update(a.id, { tags: ['math'] }, { author: claude, expectedRevision: first.revision! });
    let changes = core.agentChanges.list().changes;
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.writes, 2);
    assert.equal(changes[0]!.before, a.revision, 'reverting it undoes both');
    assert.equal(changes[0]!.after, second.revision);
    assert.equal(second.change, first.change);

    const third = core.agentWrites.update(a.id, { description: 'Adds.' }, { author: cursor, expectedRevision: second.revision! });
    const user1 = core.assets.writes.edit(a.id, { content: { text: `${CODE}\n` } }, { author: user });
    const fourth = core.agentWrites.update(a.id, { name: 'sum' }, { author: claude, expectedRevision: user1.revision });
    changes = core.agentChanges.list().changes;
    assert.deepEqual(
      changes.map((c) => [c.agent.name, c.before, c.after]),
      [
        ['Claude Code', user1.revision, fourth.revision],
        ['Cursor', second.revision, third.revision],
        ['Claude Code', a.revision, second.revision],
      ],
    );

    // Created then deleted by the same agent: nothing of the user's changed, nothing listed.
    const made = await core.agentWrites.save({ content: 'SELECT 1;\n', name: 'probe' }, cursor);
    assert.equal(core.agentChanges.list().total, 4);
    core.agentWrites.delete(made.asset!, { author: cursor, expectedRevision: made.revision! });
    assert.equal(core.agentChanges.list().total, 3);
  });
});

test('an update or delete on a revision the agent did not read is refused, and nothing is written', async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    const moved = core.assets.writes.edit(a.id, { content: { text: `${CODE}// mine\n` } }, { author: user });
    assert.throws(
      () => core.agentWrites.update(a.id, { content: 'overwritten' }, { author: claude, expectedRevision: a.revision }),
      (error: unknown) => error instanceof RevisionConflictError && error.current === moved.revision && error.expected === a.revision,
    );
    assert.throws(() => core.agentWrites.delete(a.id, { author: claude, expectedRevision: a.revision }), RevisionConflictError);
    assert.equal(textOf(core, a.id), `${CODE}// mine\n`);
    assert.equal(core.history.list(a.id).revisions.length, 2);
    assert.equal(core.agentChanges.list().total, 0);

    assert.throws(() => core.agentWrites.update('no-such-id', { name: 'x' }, { author: claude, expectedRevision: a.revision }), NotFoundError);
    assert.throws(() => core.agentWrites.update(a.id, {}, { author: claude, expectedRevision: moved.revision }), InvalidInputError);
    assert.throws(() => core.agentWrites.update(a.id, { content: '  \n' }, { author: claude, expectedRevision: moved.revision }), InvalidInputError);
    assert.throws(() => core.agentWrites.update(a.id, { name: 'x' }, { author: claude, expectedRevision: '' }), InvalidInputError);
    assert.throws(() => core.agentWrites.update(a.id, { name: 'x' }, { author: user, expectedRevision: moved.revision }), InvalidInputError, 'only agents write through the agent doors');
    assert.throws(
      () => core.agentWrites.update(a.id, { content: 'x'.repeat(LIMITS.contentChars + 1) }, { author: claude, expectedRevision: moved.revision }),
      LimitExceededError,
    );
    assert.throws(() => core.agentWrites.update(a.id, { tags: ['t'.repeat(LIMITS.tagChars + 1)] }, { author: claude, expectedRevision: moved.revision }), LimitExceededError);
    assert.throws(() => core.agentWrites.update(a.id, { language: 'klingon' }, { author: claude, expectedRevision: moved.revision }), InvalidInputError);
    await assert.rejects(core.agentWrites.save({ content: 'x'.repeat(LIMITS.contentChars + 1) }, claude), LimitExceededError);
    await assert.rejects(core.agentWrites.save({ content: 'x = 1', websites: ['javascript:alert(1)'] }, claude), InvalidInputError);
  });
});

test('two agents updating the same revision at once: one wins, the other is refused, nothing is lost', async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    const results = await Promise.allSettled([
      Promise.resolve().then(() => core.agentWrites.update(a.id, { content: `${CODE}// claude\n` }, { author: claude, expectedRevision: a.revision })),
      Promise.resolve().then(() => core.agentWrites.update(a.id, { content: `${CODE}// cursor\n` }, { author: cursor, expectedRevision: a.revision })),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    assert.ok(lost[0]!.reason instanceof RevisionConflictError);
    const revisions = core.history.list(a.id).revisions;
    assert.equal(revisions.length, 2, 'the original and the winner');
    assert.equal(core.history.get(a.id, revisions[1]!.id).content.text, CODE, 'the original is kept');
    assert.match(textOf(core, a.id)!, /\/\/ (claude|cursor)\n$/);
    assert.equal(core.agentChanges.list().total, 1);
  });
});

test("accepting clears a mark; reverting restores the revision before as the user's write, or refuses when the snippet moved on", async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    const b = await userSnippet(core, 'SELECT * FROM t;\n', 'all rows');
    const up = core.agentWrites.update(a.id, { content: 'broken', name: 'broken' }, { author: claude, expectedRevision: a.revision });
    const upB = core.agentWrites.update(b.id, { tags: ['sql'] }, { author: claude, expectedRevision: b.revision });
    const made = await core.agentWrites.save({ content: 'echo hi\n', name: 'greet' }, claude);

    await assert.rejects(core.agentChanges.accept(up.change!, claude), ForbiddenError, 'an agent does not review agents');
    assert.throws(() => core.agentChanges.revert(up.change!, cursor), ForbiddenError);

    const reverted = core.agentChanges.revert(up.change!, user);
    assert.equal(reverted.status, 'reverted');
    assert.equal(textOf(core, a.id), CODE);
    const history = core.history.list(a.id).revisions;
    assert.deepEqual(history.map((r) => r.author.name), ['Satchel for VS Code', 'Claude Code', 'Satchel for VS Code']);
    assert.equal(history[0]!.restoredFrom, a.revision);
    assert.equal(core.history.get(a.id, up.revision!).content.text, 'broken', "the agent's version stays in the history");

    // The user changed b after the agent: reverting would undo the user's change too.
    core.assets.writes.edit(b.id, { name: 'all rows of t' }, { author: user });
    assert.throws(() => core.agentChanges.revert(upB.change!, user), (error: unknown) => error instanceof ChangedSinceError && /changed since the agent's change/.test(error.message));
    assert.equal(core.assets.get(b.id, { transferables: false }).name, 'all rows of t');

    const accepted = await core.agentChanges.accept(upB.change!, user);
    assert.equal(accepted.status, 'accepted');
    assert.deepEqual(core.assets.labels.tagsOfAsset(b.id).map((t) => t.text), ['sql'], 'accepting writes nothing');

    // A created snippet reverted goes away.
    core.agentChanges.revert(made.change!, user);
    assert.equal(core.assets.exists(made.asset!), false);
    assert.equal(core.agentChanges.list().total, 0);
    assert.throws(() => core.agentChanges.revert(made.change!, user), NotFoundError);
  });
});

test("the user's delete of a snippet clears its marks; accepting all clears every mark", async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    const b = await userSnippet(core, 'ls -la\n', 'list');
    core.agentWrites.update(a.id, { name: 'a' }, { author: claude, expectedRevision: a.revision });
    core.agentWrites.update(b.id, { name: 'b' }, { author: claude, expectedRevision: b.revision });
    await core.agentWrites.save({ content: 'print(1)\n' }, cursor);
    assert.equal(core.agentChanges.list().total, 3);
    core.assets.writes.delete(a.id, { author: user });
    assert.equal(core.agentChanges.list().total, 2);
    const all = await core.agentChanges.acceptAll(user);
    assert.equal(all.accepted.length, 2);
    assert.deepEqual(all.failed, []);
    assert.equal(core.agentChanges.list().total, 0);
    assert.equal(core.assets.get(b.id, { transferables: false }).name, 'b');
  });
});

test('while agent writes wait for review, they are proposals that change nothing until accepted', async () => {
  await withCore(
    async (core) => {
      const a = await userSnippet(core);
      const b = await userSnippet(core, 'git status\n', 'status');
      const before = core.assets.identifiers().length;

      const created = await core.agentWrites.save({ content: 'def unique_marker_fn():\n    pass\n', name: 'marker' }, claude);
      assert.equal(created.status, 'proposed');
      assert.equal(created.asset, undefined);
      const edited = core.agentWrites.update(a.id, { content: 'proposed_body_text()\n' }, { author: claude, expectedRevision: a.revision });
      assert.equal(edited.status, 'proposed');
      assert.equal(edited.base, a.revision);
      const refined = core.agentWrites.update(a.id, { name: 'refined' }, { author: claude, expectedRevision: a.revision });
      assert.equal(refined.change, edited.change, "the agent's second proposal on the same revision refines its first");
      const deleted = core.agentWrites.delete(b.id, { author: cursor, expectedRevision: b.revision });
      assert.equal(deleted.status, 'proposed');

      // Nothing counts yet.
      assert.equal(core.assets.identifiers().length, before);
      assert.equal(textOf(core, a.id), CODE);
      assert.equal(core.history.current(a.id), a.revision);
      assert.equal(core.assets.exists(b.id), true);
      assert.deepEqual(core.assets.searches.queryIds('unique_marker_fn', { tags: [], limit: 10 }), []);
      assert.deepEqual(core.assets.searches.queryIds('proposed_body_text', { tags: [], limit: 10 }), []);

      const list = core.agentChanges.list();
      assert.equal(list.reviewing, true);
      assert.deepEqual(
        list.changes.map((c) => [c.kind, c.status, c.name]),
        [
          ['deleted', 'proposed', 'status'],
          ['changed', 'proposed', 'refined'],
          ['created', 'proposed', 'marker'],
        ],
      );
      assert.deepEqual(core.agentChanges.get(edited.change!).edit, { content: 'proposed_body_text()\n', name: 'refined' });
      assert.equal(core.agentChanges.get(created.change!).save?.content, 'def unique_marker_fn():\n    pass\n');

      // A stale proposal is refused when made.
      assert.throws(() => core.agentWrites.update(a.id, { name: 'x' }, { author: claude, expectedRevision: 'not-the-revision' }), RevisionConflictError);

      // Accepted: applied as the agent's write, not marked again.
      const acceptedCreate = await core.agentChanges.accept(created.change!, user);
      assert.ok(acceptedCreate.asset);
      assert.deepEqual(core.assets.searches.queryIds('unique_marker_fn', { tags: [], limit: 10 }), [acceptedCreate.asset]);
      assert.equal(core.history.list(acceptedCreate.asset).revisions[0]!.author.name, 'Claude Code');
      const acceptedEdit = await core.agentChanges.accept(edited.change!, user);
      assert.equal(textOf(core, a.id), 'proposed_body_text()\n');
      assert.equal(core.assets.get(a.id, { transferables: false }).name, 'refined');
      assert.equal(core.history.list(a.id).revisions[0]!.author.name, 'Claude Code');
      assert.equal(acceptedEdit.revision, core.history.current(a.id));
      // Rejected: nothing happens.
      const rejected = core.agentChanges.revert(deleted.change!, user);
      assert.equal(rejected.status, 'rejected');
      assert.equal(core.assets.exists(b.id), true);
      assert.equal(core.agentChanges.list().total, 0);
    },
    { agents: { reviewChanges: true } },
  );
});

test('accepting a proposal whose snippet changed meanwhile fails clearly and keeps it listed; a proposal is applied once', async () => {
  await withCore(
    async (core) => {
      const a = await userSnippet(core);
      const proposal = core.agentWrites.update(a.id, { content: 'agent version\n' }, { author: claude, expectedRevision: a.revision });
      const mine = core.assets.writes.edit(a.id, { content: { text: 'user version\n' } }, { author: user });
      await assert.rejects(
        core.agentChanges.accept(proposal.change!, user),
        (error: unknown) => error instanceof ChangedSinceError && error.current === mine.revision && /agent proposed this change/.test(error.message),
      );
      assert.equal(textOf(core, a.id), 'user version\n');
      assert.equal(core.agentChanges.list().total, 1);
      const all = await core.agentChanges.acceptAll(user);
      assert.deepEqual(all.accepted, []);
      assert.equal(all.failed[0]?.code, 'stale_revision');
      assert.equal(all.failed[0]?.currentRevision, mine.revision);

      const save = await core.agentWrites.save({ content: 'once()\n', name: 'once' }, claude);
      const twice = await Promise.allSettled([core.agentChanges.accept(save.change!, user), core.agentChanges.accept(save.change!, user)]);
      assert.deepEqual(twice.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      assert.equal(core.assets.identifiers().filter((id) => core.assets.text(id) === 'once()\n').length, 1);
    },
    { agents: { reviewChanges: true } },
  );
});

test('any write whose author is an agent is marked, whatever the door; other authors\' are not', async () => {
  await withCore(async (core) => {
    const a = await userSnippet(core);
    core.assets.writes.edit(a.id, { name: 'by the cli' }, TEST_WRITE);
    core.assets.writes.edit(a.id, { name: 'by an mcp client through the interface' }, { author: claude });
    const list = core.agentChanges.list();
    assert.equal(list.total, 1, 'any write whose author is an agent is marked, whatever the door');
    assert.equal(list.changes[0]!.kind, 'changed');
  });
});

test("compaction keeps the revision an unreviewed agent change was made on, so Revert can restore it; once reviewed it may go", async () => {
  await withCore(
    async (core) => {
      const a = await userSnippet(core);
      let revision = a.revision;
      for (const version of ['one', 'two', 'three']) revision = core.agentWrites.update(a.id, { content: `${CODE}// ${version}\n` }, { author: claude, expectedRevision: revision }).revision!;
      const [change] = core.agentChanges.list().changes;
      assert.equal(change?.before, a.revision);
      assert.equal(change?.writes, 3);
      // The policy keeps 2 revisions per snippet: the two older agent revisions go, the one before the agent's change stays.
      assert.equal(core.history.compactor.compactAsset(a.id), 1);
      assert.ok(core.history.list(a.id).revisions.some((r) => r.id === a.revision), 'the revision before the change is kept');
      core.agentChanges.revert(change!.id, user);
      assert.equal(textOf(core, a.id), CODE);

      // Reviewed: nothing pins it any more.
      const b = core.agentWrites.update(a.id, { name: 'renamed' }, { author: claude, expectedRevision: core.history.current(a.id) });
      await core.agentChanges.accept(b.change!, user);
      core.history.compactor.compactAsset(a.id);
      assert.equal(core.history.list(a.id).revisions.length, 2);
    },
    { history: { delayMs: 60_000, policy: { maxPerAsset: 2 } } },
  );
});

test("reverting an agent's delete brings the snippet back from the trash, whole, at the revision before the agent's writes", async () => {
  await withCore(async (core) => {
    const mine = await userSnippet(core);
    core.assets.writes.edit(mine.id, { tags: ['math'] }, { author: user });
    const before = core.history.current(mine.id);
    const changed = core.agentWrites.update(mine.id, { content: 'export const add = (a: number, b: number) => a + b;\n' }, { author: copilot, expectedRevision: before });
    core.agentWrites.delete(mine.id, { author: copilot, expectedRevision: changed.revision! });
    assert.equal(core.assets.exists(mine.id), false);
    const change = core.agentChanges.list().changes.find((c) => c.asset === mine.id);
    assert.equal(change?.kind, 'deleted');

    const reverted = core.agentChanges.revert(change!.id, user);
    assert.equal(reverted.status, 'reverted');
    assert.equal(core.assets.exists(mine.id), true, 'back under its id');
    assert.equal(textOf(core, mine.id), CODE, "the text before the agent's update");
    assert.deepEqual(core.assets.get(mine.id, { transferables: false }).tags?.iterable?.map((tag) => tag.text), ['math'], 'its tags came back with it');
    assert.equal(core.trash.list({}).total, 0, 'no longer in the trash');
    assert.equal(core.agentChanges.list().total, 0);
  });
});
