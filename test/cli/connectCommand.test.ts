/**
 * `satchel connect` / `satchel disconnect` run as a user runs them, in a temporary home: nothing is
 * written without a terminal to ask unless --yes is given; the entry names the running host's port;
 * Pieces entries stay unless --replace-pieces; --list says where each agent stands; disconnect
 * gives the file back; a malformed file is refused and left alone. Claude Desktop's entry runs
 * `satchel mcp-stdio`, and the command written is run to check that it serves MCP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { CLI_ARGS } from '../support/cli.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI with `home` as the user's home folder and no terminal. */
function satchel(home: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config') };
    delete env.CODEX_HOME;
    delete env.CLAUDE_CONFIG_DIR;
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function put(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const CODEX = '# my settings\nmodel = "o3"\n\n[mcp_servers.Pieces]\nurl = "http://localhost:39300/model_context_protocol/2025-03-26/mcp"\n';

test('without --yes and without a terminal nothing is written; with --yes the entry names the given port', { timeout: 60_000 }, async () => {
  const home = tempDir('satchel-cli-connect-');
  try {
    const codex = join(home, '.codex', 'config.toml');
    put(codex, CODEX);
    const refused = await satchel(home, ['connect', 'codex', 'cursor', '--port', '39305', '--data-dir', join(home, 'data')]);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /\+\[mcp_servers\.satchel\]/, 'the change is shown');
    assert.match(refused.stderr, /no terminal to ask; run again with --yes/);
    assert.equal(readFileSync(codex, 'utf8'), CODEX);
    assert.equal(existsSync(join(home, '.cursor')), false);

    const written = await satchel(home, ['connect', 'codex', 'cursor', '--port', '39305', '--yes']);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /entry for Pieces OS \("Pieces"\); it is kept/);
    const servers = parseToml(readFileSync(codex, 'utf8')).mcp_servers as Record<string, { url: string }>;
    assert.equal(servers.satchel?.url, 'http://127.0.0.1:39305/mcp');
    assert.ok(servers.Pieces, 'Pieces kept when not asked');
    assert.ok(readFileSync(codex, 'utf8').startsWith('# my settings\n'));
    assert.ok(readdirSync(dirname(codex)).some((name) => name.startsWith('config.toml.satchel-backup-')), 'the original is kept');
    const cursor = parseJsonc(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(cursor.mcpServers.satchel, { url: 'http://127.0.0.1:39305/mcp' });

    const replaced = await satchel(home, ['connect', 'codex', '--port', '39305', '--replace-pieces', '--yes']);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.deepEqual(Object.keys(parseToml(readFileSync(codex, 'utf8')).mcp_servers as object), ['satchel']);

    const listed = await satchel(home, ['connect', '--list', '--port', '39305']);
    assert.match(listed.stdout, /codex\s+Codex CLI\s+connected \(http:\/\/127\.0\.0\.1:39305\/mcp\)/);
    assert.match(listed.stdout, /windsurf\s+Windsurf\s+no file yet/);

    const removed = await satchel(home, ['disconnect', 'codex', '--yes']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(readFileSync(codex, 'utf8'), '# my settings\nmodel = "o3"\n');
    const again = await satchel(home, ['disconnect', 'codex', '--yes']);
    assert.match(again.stdout, /no Satchel entry/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("with a host serving the data directory, the entry names the host's port", { timeout: 60_000 }, async () => {
  const home = tempDir('satchel-cli-connect-host-');
  const dataDir = join(home, 'data');
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  try {
    const result = await satchel(home, ['connect', 'gemini', '--data-dir', dataDir, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /No Satchel host/);
    const settings = parseJsonc(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')) as { mcpServers: Record<string, { httpUrl: string }> };
    assert.equal(settings.mcpServers.satchel?.httpUrl, `http://127.0.0.1:${host.server.port}/mcp`);
  } finally {
    await host.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('a malformed file or an unknown agent is refused with a clear message, and nothing is changed', { timeout: 60_000 }, async () => {
  const home = tempDir('satchel-cli-connect-bad-');
  try {
    const file = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    put(file, '{ "mcpServers": { "x": { "serverUrl": "u" } ');
    const result = await satchel(home, ['connect', 'windsurf', '--port', '39300', '--yes']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /mcp_config\.json: not valid JSON at line 1, column \d+: .*Nothing was changed/);
    assert.equal(readFileSync(file, 'utf8'), '{ "mcpServers": { "x": { "serverUrl": "u" } ');
    assert.deepEqual(readdirSync(dirname(file)), ['mcp_config.json']);

    const unknown = await satchel(home, ['connect', 'notepad']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Unknown agent notepad: one of claude-code, claude-desktop, cursor/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("claude-desktop gets Satchel's own stdio bridge, and the command written into its file serves MCP", { timeout: 60_000 }, async () => {
  const home = tempDir('satchel-cli-connect-');
  const dataDir = join(home, 'data');
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  try {
    const written = await satchel(home, ['connect', 'claude-desktop', '--data-dir', dataDir, '--yes']);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /through satchel mcp-stdio/);
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const entry = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> }).mcpServers.satchel!;
    assert.equal(entry.command, process.execPath, 'an absolute Node: agents start servers with a PATH of their own');
    assert.deepEqual(entry.args.slice(-4), [CLI_ARGS.at(-1), 'mcp-stdio', '--data-dir', dataDir]);
    assert.ok(!JSON.stringify(entry).includes('npx'), 'nothing fetched at run time');

    // Run it as Claude Desktop does: the command, its arguments and its env, MCP on stdio.
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...plainEnv(), ...entry.env }, stderr: 'pipe' });
    const client = new Client({ name: 'claude-ai', version: '0.1.0' });
    try {
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes('search_snippets'), tools.join(', '));
    } finally {
      await client.close();
    }
    const listed = await satchel(home, ['connect', '--list', '--data-dir', dataDir]);
    assert.match(listed.stdout, /claude-desktop\s+Claude Desktop\s+connected \(through satchel mcp-stdio\)/);
  } finally {
    await host.close();
    rmSync(home, { recursive: true, force: true });
  }
});

function plainEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
