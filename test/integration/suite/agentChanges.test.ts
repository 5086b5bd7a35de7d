/**
 * Agent changes in a real VS Code: what agents do over MCP (the SDK's own client, as Claude Code
 * or Cursor would) and through the language-model tools is listed under "Agent changes" in the
 * Assets view; the diff of a change opens; Revert restores the previous text (a created snippet
 * goes away); Accept and Accept All clear entries; with satchel.agents.reviewWrites on, an agent's
 * write waits there, unseen by search and completion, until accepted. Screenshots of the node (with
 * applied changes, and with a proposal) and of a diff.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import { SatchelClient, ClientError } from '../../../src/client/satchelClient.ts';
import { assetText } from '../../../src/client/assets.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import type { AgentChange } from '../../../src/client/agentChanges.ts';
import type { AgentChangesNode } from '../../../src/extension/views/agentChangesNode.ts';
import type { ChangeSides } from '../../../src/extension/views/agentChangeDiff.ts';

let api: SatchelExtension;

async function invoke<T>(name: string, input: object): Promise<T> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return JSON.parse(result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('')) as T;
}

describe('Agent changes', function () {
  const USER = authorOf('vscode', 'integration test user');
  let user: SatchelClient;
  let claude: Client;
  let cursor: Client;

  async function mcp(name: string): Promise<Client> {
    const connection = new Client({ name, version: '1.0.0' });
    await connection.connect(new StreamableHTTPClientTransport(new URL(`${api.server.connection!.url}/mcp`)));
    return connection;
  }

  async function tool<T>(agent: Client, name: string, args: Record<string, unknown>): Promise<T> {
    const result = (await agent.callTool({ name, arguments: args })) as CallToolResult;
    const first = result.content[0];
    assert.notEqual(result.isError, true, first?.type === 'text' ? first.text : name);
    return result.structuredContent as T;
  }

  async function saveAsUser(text: string, name: string): Promise<{ id: string; revision: string }> {
    const asset = await user.assets.createFromText({ text, application: await api.server.application(), language: 'ts', name });
    const { revision } = await user.assets.getRevised(asset.id);
    return { id: asset.id, revision: revision! };
  }

  const listed = (asset: string | undefined, kind?: string) =>
    api.assets.agentChanges.changes.find((change) => (asset === undefined || change.asset === asset) && (kind === undefined || change.kind === kind));

  function node(change: AgentChange): AgentChangesNode {
    return { type: 'agentChange', change };
  }

  /** The node expanded, with `selected` selected so its inline actions show. */
  async function showAgentChanges(selected: AgentChange): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.extension.satchel');
    await vscode.commands.executeCommand('satchel.assets.focus');
    await api.assets.treeView.reveal({ type: 'agentChanges' }, { expand: true, select: false }).then(undefined, () => undefined);
    await api.assets.treeView.reveal(node(selected), { select: true, focus: true }).then(undefined, () => undefined);
    await new Promise((r) => setTimeout(r, 1000));
  }

  before(async function () {
    api = (await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate())!;
    await until('the server role', () => api.server.connection, 30_000);
    user = new SatchelClient(api.server.connection!.url, { author: USER });
    claude = await mcp('Claude Code');
    cursor = await mcp('Cursor');
    // Earlier tests' changes (the tools' saves) are not this block's.
    await user.agentChanges.acceptAll();
    await until('an empty Agent changes list', () => api.assets.agentChanges.total === 0);
  });

  after(async function () {
    await claude?.close();
    await cursor?.close();
    user?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists what agents did over MCP and the language-model tools, with a diff of each; Revert restores the previous text', async function () {
    this.timeout(90_000);
    const ORIGINAL = 'export function median(values: number[]): number {\n  const sorted = [...values].sort();\n  return sorted[Math.floor(sorted.length / 2)];\n}\n';
    const FIXED = 'export function median(values: number[]): number {\n  const sorted = [...values].sort((a, b) => a - b);\n  const middle = Math.floor(sorted.length / 2);\n  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;\n}\n';
    const median = await saveAsUser(ORIGINAL, 'median');
    const updated = await tool<{ status: string; revision: string }>(claude, 'update_snippet', { id: median.id, expected_revision: median.revision, content: FIXED, tags: ['math'] });
    assert.equal(updated.status, 'updated');
    await tool(cursor, 'save_snippet', { content: 'export const clamp01 = (v: number) => Math.min(1, Math.max(0, v));\n', name: 'clamp01', language: 'ts' });

    // The language-model tool: a stale revision is refused and says which to read; the current one is taken.
    const slugify = await saveAsUser('export const slug = (s: string) => s.toLowerCase();\n', 'slug');
    await user.history.edit(slugify.id, { name: 'slugify' });
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('satchel_update_snippet', { input: { id: slugify.id, expectedRevision: slugify.revision, description: 'URL slugs' }, toolInvocationToken: undefined })),
      /changed since revision .*Nothing was written.*satchel_get_snippet/,
    );
    const read = await invoke<{ revision: string; name: string }>('satchel_get_snippet', { id: slugify.id });
    assert.equal(read.name, 'slugify');
    const viaTool = await invoke<{ status: string }>('satchel_update_snippet', { id: slugify.id, expectedRevision: read.revision, description: 'URL slugs' });
    assert.equal(viaTool.status, 'updated');

    const change = await until('the MCP update under Agent changes', () => listed(median.id, 'changed'));
    assert.equal(change.agent.name, 'Claude Code');
    await until("the tools' change and Cursor's save", () => listed(slugify.id) && listed(undefined, 'created'));
    assert.equal(listed(slugify.id)!.agent.name, 'VS Code agent');
    const roots = api.assets.getChildren();
    assert.equal(roots[0]?.type, 'agentChanges', 'the node comes first');
    const root = api.assets.getTreeItem(roots[0]!);
    assert.equal(root.label, 'Agent changes');
    assert.match(String(root.description), /^3\b/);
    const item = api.assets.getTreeItem(node(change));
    assert.equal(item.label, 'median');
    assert.match(String(item.description), /Claude Code changed/);
    assert.equal(item.contextValue, 'agentChange:applied:changed');
    await showAgentChanges(change);
    await screenshot('agent-changes');

    // The diff: the revision before the agent's change against the agent's.
    const sides = await vscode.commands.executeCommand<ChangeSides>('satchel.agentChange.showDiff', node(change));
    assert.equal(sides.before?.text, ORIGINAL);
    assert.equal(sides.after?.text, FIXED);
    const tab = await until('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(tab.original.scheme, 'satchel-agent-change');
    assert.equal((await vscode.workspace.openTextDocument(tab.modified)).getText(), FIXED);
    await new Promise((r) => setTimeout(r, 1000));
    await screenshot('agent-change-diff');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Revert: the text before comes back (a new revision by the user); the entry goes.
    const reverted = await vscode.commands.executeCommand<{ status: string }>('satchel.agentChange.revert', node(change));
    assert.equal(reverted.status, 'reverted');
    assert.equal(assetText(await user.assets.get(median.id)), ORIGINAL);
    assert.deepEqual((await user.assets.get(median.id)).tags?.iterable.map((t) => t.text) ?? [], [], 'the tags come back too');
    assert.equal((await user.history.list(median.id)).revisions[0]?.author.name, 'Satchel for VS Code');
    await until('the reverted change to leave the list', () => !api.assets.agentChanges.change(change.id));

    // A snippet an agent created, reverted, is gone.
    const created = listed(undefined, 'created')!;
    await vscode.commands.executeCommand('satchel.agentChange.revert', node(created));
    await assert.rejects(user.assets.get(created.asset!), (error: unknown) => error instanceof ClientError && error.notFound);
  });

  it('Accept keeps the change and clears it; Accept All clears the rest', async function () {
    const before = await saveAsUser('export const twice = (n: number) => n + n;\n', 'twice');
    const updated = await tool<{ revision: string }>(claude, 'update_snippet', { id: before.id, expected_revision: before.revision, content: 'export const twice = (n: number) => n * 2;\n' });
    const change = await until('the update under Agent changes', () => listed(before.id, 'changed'));
    const accepted = await vscode.commands.executeCommand<{ status: string }>('satchel.agentChange.accept', node(change));
    assert.equal(accepted.status, 'accepted');
    await until('the accepted change to leave the list', () => !api.assets.agentChanges.change(change.id));
    assert.equal(assetText(await user.assets.get(before.id)), 'export const twice = (n: number) => n * 2;\n', "the agent's text stays");
    assert.equal((await user.assets.getRevised(before.id)).revision, updated.revision, 'accepting writes nothing');

    await until('the rest listed', () => api.assets.agentChanges.total > 0);
    const all = await vscode.commands.executeCommand<{ failed: unknown[] }>('satchel.agentChanges.acceptAll');
    assert.deepEqual(all.failed, []);
    await until('no Agent changes node', () => api.assets.getChildren()[0]?.type !== 'agentChanges');
  });

  it('with satchel.agents.reviewWrites on, an agent write waits under Agent changes, unseen by search and completion until accepted', async function () {
    this.timeout(60_000);
    const settings = vscode.workspace.getConfiguration('satchel');
    await settings.update('agents.reviewWrites', true, vscode.ConfigurationTarget.Global);
    try {
      await until('the host to review agent writes', async () => (await user.agentChanges.list()).reviewing);
      const CODE = 'export function wallabyRange(n: number): number[] {\n  return Array.from({ length: n }, (_, i) => i);\n}\n';
      const proposed = await tool<{ status: string; change: string }>(claude, 'save_snippet', { content: CODE, name: 'wallabyRange', language: 'ts' });
      assert.equal(proposed.status, 'proposed');
      const change = await until('the proposal under Agent changes', () => api.assets.agentChanges.change(proposed.change));
      assert.equal(api.assets.getTreeItem(node(change)).contextValue, 'agentChange:proposed:created');
      assert.match(String(api.assets.getTreeItem({ type: 'agentChanges' }).description), /awaiting review/);
      assert.equal((await user.assets.search('wallabyRange')).iterable?.length ?? 0, 0, 'search does not see it');
      assert.deepEqual((await user.snippets.completions('wallaby', { language: 'typescript' })).candidates, [], 'completion does not see it');
      const sides = await vscode.commands.executeCommand<ChangeSides>('satchel.agentChange.showDiff', node(change));
      assert.equal(sides.before, undefined);
      assert.equal(sides.after?.text, CODE, 'the diff shows what it would save');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await showAgentChanges(change);
      await screenshot('agent-changes-review');

      const accepted = await vscode.commands.executeCommand<{ asset: string }>('satchel.agentChange.accept', node(change));
      assert.equal((await user.assets.search('wallabyRange')).iterable?.[0]?.asset?.id, accepted.asset);
      await until('the accepted snippet in the Assets view', () => api.assets.asset(accepted.asset));
    } finally {
      await settings.update('agents.reviewWrites', undefined, vscode.ConfigurationTarget.Global);
    }
    await until('the host to count agent writes again', async () => !(await user.agentChanges.list()).reviewing);
  });
});
