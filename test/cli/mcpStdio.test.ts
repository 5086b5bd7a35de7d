/**
 * `satchel mcp-stdio` as an agent that starts only local servers runs it: the built CLI
 * (dist/cli.cjs) spoken to over its stdin/stdout with the SDK's Client and StdioClientTransport,
 * relaying to a host on port 0 that serves the data directory. A restarted host is found again
 * (on its new port) with the session going on, stdin closing ends the bridge, a data directory
 * nobody serves gets a host started, and stdout carries nothing but MCP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { tryStartHost, type RunningHost } from '../../src/hosting/host.ts';
import { readPortFile } from '../../src/hosting/portFile.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { callTool, structuredOk } from '../support/mcpClient.ts';
import { ensureCliBuilt } from '../reliability/support.ts';

const CLI = ensureCliBuilt();

async function hostOn(dataDir: string): Promise<RunningHost> {
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host, 'the data directory is free');
  return host;
}

function bridge(args: readonly string[], env: Record<string, string> = {}): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp-stdio', ...args], env: { ...plainEnv(), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { client: new Client({ name: 'Claude Desktop test', version: '1.0.0' }), transport, stderr: () => stderr };
}

function plainEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** What these tests read of save_snippet's answer. */
const Saved = z.object({ status: z.string(), id: z.string() });

test('an MCP client on the bridge lists and calls tools, and keeps its session across a host restart on a new port', async () => {
  const dataDir = tempDir('satchel-mcp-stdio-');
  let host = await hostOn(dataDir);
  const { client, transport, stderr } = bridge(['--data-dir', dataDir]);
  try {
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, 'satchel');
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['search_snippets', 'save_snippet', 'save_memory']) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);

    const saved = await structuredOk(client, 'save_snippet', { content: 'export const clampUnit = (v: number) => Math.min(1, Math.max(0, v));\n', name: 'clamp to unit', language: 'ts' }, Saved);
    assert.equal(saved.status, 'saved');
    assert.equal(host.core.assets.get(saved.id).name, 'clamp to unit');
    assert.deepEqual(host.core.history.list(saved.id).revisions[0]!.author, { kind: 'mcp', name: 'Claude Desktop test' }, 'the host knows the client by its initialize');
    const found = await callTool(client, 'search_snippets', { query: 'clamp to unit' });
    assert.match(JSON.stringify(found.content), /clamp to unit/);

    const firstUrl = host.server.url;
    await host.close();
    host = await hostOn(dataDir);
    assert.notEqual(host.server.url, firstUrl, 'the new host listens on another port');

    const again = await structuredOk(client, 'save_snippet', { content: 'export const twice = (n: number) => n * 2;\n', name: 'twice', language: 'ts' }, Saved);
    assert.equal(again.status, 'saved');
    assert.deepEqual(host.core.history.list(again.id).revisions[0]!.author, { kind: 'mcp', name: 'Claude Desktop test' }, "the new host was given the client's initialize");
    assert.match(stderr(), /session goes on with the Satchel host/);

    // Restarted on the same port between two calls: no connection fails, the port file tells.
    const samePort = Number(new URL(host.server.url).port);
    await host.close();
    const same = await tryStartHost({ dataDir, logger: silentLogger, port: samePort });
    assert.ok(same);
    host = same;
    const third = await structuredOk(client, 'save_snippet', { content: 'export const thrice = (n: number) => n * 3;\n', name: 'thrice', language: 'ts' }, Saved);
    assert.deepEqual(host.core.history.list(third.id).revisions[0]!.author, { kind: 'mcp', name: 'Claude Desktop test' });
  } finally {
    await client.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a request while no host runs, with --no-start, is answered with an error naming the reason', async () => {
  const parent = tempDir('satchel-mcp-stdio-');
  const dataDir = join(parent, 'not-yet');
  const { client, transport } = bridge(['--data-dir', dataDir, '--no-start']);
  try {
    await assert.rejects(client.connect(transport), /No Satchel host serves .*--no-start/);
    assert.equal(existsSync(dataDir), false, 'looking for a host creates no data directory');
  } finally {
    await client.close();
    rmSync(parent, { recursive: true, force: true });
  }
});

test('with no host serving the data directory, the bridge starts one and relays to it', async () => {
  const dataDir = tempDir('satchel-mcp-stdio-');
  // The host started inherits SATCHEL_PORT: port 0 keeps the test off the ports users' hosts take.
  const { client, transport, stderr } = bridge(['--data-dir', dataDir], { SATCHEL_PORT: '0' });
  let pid: number | undefined;
  try {
    await client.connect(transport);
    const file = readPortFile(dataDir);
    assert.ok(file, 'a host wrote its port file');
    pid = file.pid;
    assert.equal(file.managed, true, 'started as a window starts one: a window may replace it with its settings');
    assert.match(stderr(), /started one \(pid \d+/);
    assert.ok((await client.listTools()).tools.length > 5);
  } finally {
    await client.close();
    if (pid !== undefined) process.kill(pid, 'SIGTERM');
    await waitGone(pid);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('closing stdin ends the bridge once the requests already sent are answered, and stdout held only JSON-RPC lines', async () => {
  const dataDir = tempDir('satchel-mcp-stdio-');
  const host = await hostOn(dataDir);
  try {
    const child = spawn(process.execPath, [CLI, 'mcp-stdio', '--data-dir', dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // As `printf … | satchel mcp-stdio` sends them: all at once, stdin closed right after.
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    const started = Date.now();
    assert.equal(await exited, 0, stderr);
    assert.ok(Date.now() - started < 5000, `exited ${Date.now() - started} ms after stdin closed`);
    const Reply = z.object({ jsonrpc: z.string().optional(), id: z.number().optional(), result: z.object({ tools: z.array(z.unknown()).optional() }).optional() });
    const replies = lines.map((line): unknown => JSON.parse(line)).map((reply) => Reply.parse(reply));
    for (const reply of replies) assert.equal(reply.jsonrpc, '2.0');
    assert.deepEqual(replies.map((reply) => reply.id).sort(), [1, 2]);
    assert.ok((replies.find((reply) => reply.id === 2)?.result?.tools?.length ?? 0) > 5);
    assert.doesNotMatch(stderr, /session goes on/, 'a request sent beside initialize waits for it instead of replaying it');
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function waitGone(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
