/**
 * *Satchel: Connect an Agent…* in a real VS Code (code-server runs with its own HOME): the command
 * shows the change in a diff editor of read-only `satchel-agent-config:` documents and writes the
 * agent's file with the host's current port; a Pieces entry is replaced when asked; Disconnect
 * gives the file back as it was.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { ConnectOutcome } from '../../../src/extension/agents/agentConnections.ts';

describe('Connect an Agent', function () {
  let api: SatchelExtension;

  before(async function () {
    api = (await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate())!;
    await until('the server role', () => api.server.connection, 30_000);
  });

  afterEach(async () => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it("writes Cursor's mcp.json with the host's port after showing the diff, keeping the user's comment", async function () {
    const file = join(homedir(), '.cursor', 'mcp.json');
    mkdirSync(join(homedir(), '.cursor'), { recursive: true });
    const original = '{\n  // my servers\n  "mcpServers": {\n    "other": { "url": "https://example.com/mcp" }\n  }\n}\n';
    writeFileSync(file, original);
    const outcome = await vscode.commands.executeCommand<ConnectOutcome>('satchel.agents.connect', { agent: 'cursor', write: true });
    assert.ok(outcome.written, 'written');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal(tab.input.modified.scheme, 'satchel-agent-config');
    const modified = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.equal(modified.getText(), readFileSync(file, 'utf8'), 'the diff showed what was written');
    await screenshot('connect-agent-diff');

    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes('// my servers'));
    const servers = (parseJsonc(text) as { mcpServers: Record<string, unknown> }).mcpServers;
    assert.deepEqual(servers.satchel, { url: `http://127.0.0.1:${api.server.connection!.port}/mcp` });
    assert.ok(servers.other);
    assert.ok(readdirSync(join(homedir(), '.cursor')).some((name) => name.startsWith('mcp.json.satchel-backup-')));

    const removed = await vscode.commands.executeCommand<ConnectOutcome>('satchel.agents.disconnect', { agent: 'cursor', write: true });
    assert.ok(removed.written);
    assert.equal(readFileSync(file, 'utf8'), original);
  });

  it("replaces Codex's Pieces entry when asked, and keeps the rest of config.toml", async function () {
    const dir = join(homedir(), '.codex');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.toml'), '# mine\nmodel = "o3"\n\n[mcp_servers.Pieces]\nurl = "http://localhost:39300/model_context_protocol/2025-03-26/mcp"\n');
    const outcome = await vscode.commands.executeCommand<ConnectOutcome>('satchel.agents.connect', { agent: 'codex', replacePieces: true, write: true });
    assert.deepEqual(outcome.change.pieces, ['Pieces']);
    const text = readFileSync(join(dir, 'config.toml'), 'utf8');
    assert.ok(text.startsWith('# mine\nmodel = "o3"\n'));
    const servers = parseToml(text).mcp_servers as Record<string, { url: string }>;
    assert.deepEqual(Object.keys(servers), ['satchel']);
    assert.equal(servers.satchel?.url, `http://127.0.0.1:${api.server.connection!.port}/mcp`);
  });

  it("gives Claude Desktop the extension's own stdio bridge, which serves MCP when run as Claude Desktop runs it", async function () {
    this.timeout(60_000);
    const outcome = await vscode.commands.executeCommand<ConnectOutcome>('satchel.agents.connect', { agent: 'claude-desktop', write: true });
    assert.ok(outcome.written, 'written');
    const entry = (JSON.parse(readFileSync(outcome.change.file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers.satchel!;
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    assert.equal(entry.command, process.execPath, "the editor's own executable, run as Node");
    assert.deepEqual(entry.args.slice(0, 2), [join(extensionPath, 'dist', 'cli.cjs'), 'mcp-stdio'], 'the CLI inside the installed package');
    assert.equal(entry.env.ELECTRON_RUN_AS_NODE, '1');

    // Run the entry as Claude Desktop does and speak MCP over its stdio.
    const child = spawn(entry.command, entry.args, { env: { ...process.env, ...entry.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    interface Reply {
      readonly id?: number;
      readonly result?: { serverInfo?: { name: string }; tools?: { name: string }[] };
    }
    const replies = new Map<number, Reply>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Reply;
      if (typeof message.id === 'number') replies.set(message.id, message);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-ai', version: '0.1.0' } } });
    await until('the answer to initialize', () => replies.get(1), 30_000);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    const listed = await until('the tools', () => replies.get(2), 30_000);
    assert.equal(replies.get(1)?.result?.serverInfo?.name, 'satchel');
    assert.ok(listed.result?.tools?.some((tool) => tool.name === 'search_snippets'));
    child.stdin.end();
    assert.equal(await exited, 0, 'the bridge ends when stdin closes');

    const removed = await vscode.commands.executeCommand<ConnectOutcome>('satchel.agents.disconnect', { agent: 'claude-desktop', write: true });
    assert.ok(removed.written);
  });
});
