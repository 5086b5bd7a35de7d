/**
 * Memories in a real VS Code: an agent set up for Pieces (the SDK's client at Pieces' streamable
 * HTTP URL) saves a memory with create_pieces_memory; the Assets view lists it under "Memories",
 * not among the Markdown snippets; when a file it cites changes, the node and the memory say
 * "may be stale" once the list is read again. Screenshot of the node with a stale memory.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { AssetsNode } from '../../../src/extension/views/assetsView.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { authorOf } from '../../../src/core/history/authors.ts';

describe('Memories', function () {
  let api: SatchelExtension;
  let agent: Client;
  /** The memories this block made: gone for good afterwards, so later blocks see the library they expect. */
  const made: string[] = [];

  before(async function () {
    api = (await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate())!;
    await until('the server role', () => api.server.connection, 30_000);
    agent = new Client({ name: 'Cursor', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${api.server.connection!.url}/model_context_protocol/2025-03-26/mcp`)));
  });

  after(async function () {
    await agent?.close();
    const user = new SatchelClient(api.server.connection!.url, { author: authorOf('vscode', 'integration test user') });
    try {
      for (const id of made) {
        await user.assets.delete(id);
        await user.trash.deleteForever(id);
      }
    } finally {
      user.dispose();
    }
  });

  it("lists an agent's memory under Memories, apart from the snippets, and marks it may be stale when a cited file changes", async function () {
    this.timeout(90_000);
    const project = mkdtempSync(join(tmpdir(), 'satchel-memory-project-'));
    const cited = join(project, 'cache.ts');
    writeFileSync(cited, 'export const ttlSeconds = 3600;\n');
    const result = (await agent.callTool({
      name: 'create_pieces_memory',
      arguments: { summary_description: 'Cache TTL is one hour', summary: '# Cache\n\nOne hour, invalidated on product updates.', project, files: [cited] },
    })) as CallToolResult;
    assert.notEqual(result.isError, true);
    const id = (result.structuredContent as { id: string }).id;
    made.push(id);

    await until('the memory under Memories', () => api.assets.memories.has(id) && api.assets.asset(id));
    const roots = api.assets.getChildren();
    const memoriesRoot = roots.find((node) => node.type === 'memories');
    assert.ok(memoriesRoot, 'a Memories node');
    assert.equal(api.assets.getTreeItem(memoriesRoot).label, 'Memories');
    const children = await api.assets.getChildren(memoriesRoot);
    const memoryNode = children.find((node): node is Extract<AssetsNode, { type: 'asset' }> => node.type === 'asset' && node.asset.id === id);
    assert.ok(memoryNode);
    assert.doesNotMatch(String(api.assets.getTreeItem(memoryNode).description), /may be stale/);
    // Not among the Markdown snippets.
    for (const group of roots.filter((node) => node.type === 'group')) {
      assert.ok(!(await api.assets.getChildren(group)).some((node) => node.type === 'asset' && node.asset.id === id), 'not in a language group');
    }

    writeFileSync(cited, 'export const ttlSeconds = 60;\n');
    await api.assets.memories.reload();
    const stale = api.assets.getTreeItem(memoryNode);
    assert.match(String(stale.description), /^may be stale/);
    assert.match(String(api.assets.getTreeItem(memoriesRoot).description), /1 may be stale/);
    assert.match((stale.tooltip as vscode.MarkdownString).value, /cache\.ts` — changed/);

    await vscode.commands.executeCommand('workbench.view.extension.satchel');
    await vscode.commands.executeCommand('satchel.assets.focus');
    await api.assets.treeView.reveal(memoryNode, { select: true, focus: true, expand: true }).then(undefined, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await screenshot('memories-stale');
  });
});
