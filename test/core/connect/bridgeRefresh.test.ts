/**
 * Claude Desktop's bridge entry after an update of the extension (core/connect/bridgeRefresh.ts):
 * an entry naming another version's folder beside this one is moved to this version's files,
 * keeping its data directory; an entry of the CLI's, of the same version, or of another extension
 * is left alone, and agents that take a URL are never touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENTS, stdioBridge } from '../../../src/core/connect/agentTargets.ts';
import { isOtherVersion, planBridgeRefresh } from '../../../src/core/connect/bridgeRefresh.ts';

const EXTENSIONS = '/home/ann/.vscode/extensions';
const CODE = '/usr/share/code/code';
const OLD = `${EXTENSIONS}/satchel-dev.satchel-0.1.0-linux-x64/dist/cli.cjs`;
const NEW = `${EXTENSIONS}/satchel-dev.satchel-0.2.0-linux-x64/dist/cli.cjs`;
const ENV = { ELECTRON_RUN_AS_NODE: '1' };
const URL = 'http://127.0.0.1:39300/mcp';
const FILE = '/home/ann/.config/Claude/claude_desktop_config.json';

function configWith(script: string, dataDir = '/home/ann/notes'): string {
  const entry = { command: CODE, args: [script, 'mcp-stdio', '--data-dir', dataDir], env: ENV };
  return `${JSON.stringify({ mcpServers: { other: { command: 'uvx', args: ['x'] }, satchel: entry } }, null, 2)}\n`;
}

const ownBridge = stdioBridge({ execPath: CODE, script: NEW, env: ENV }, { dataDir: '/home/ann/.satchel' });

test("another version's entry is moved to this version's CLI, keeping the data directory it names and the other servers", () => {
  const change = planBridgeRefresh(AGENTS['claude-desktop'], FILE, configWith(OLD), URL, ownBridge, NEW);
  assert.ok(change);
  const servers = (JSON.parse(change.after) as { mcpServers: Record<string, unknown> }).mcpServers;
  assert.deepEqual(servers.satchel, { command: CODE, args: [NEW, 'mcp-stdio', '--data-dir', '/home/ann/notes'], env: ENV });
  assert.deepEqual(servers.other, { command: 'uvx', args: ['x'] });
});

test('entries that are not another version of this extension are left alone', () => {
  const agent = AGENTS['claude-desktop'];
  assert.equal(planBridgeRefresh(agent, FILE, configWith(NEW), URL, ownBridge, NEW), undefined, 'already this version');
  assert.equal(planBridgeRefresh(agent, FILE, configWith('/usr/lib/node_modules/satchel/dist/cli.cjs'), URL, ownBridge, NEW), undefined, "the CLI's");
  assert.equal(planBridgeRefresh(agent, FILE, configWith(`${EXTENSIONS}/someone.other-1.0.0/dist/cli.cjs`), URL, ownBridge, NEW), undefined, "another extension's");
  assert.equal(planBridgeRefresh(agent, FILE, undefined, URL, ownBridge, NEW), undefined, 'no file');
  const mcpRemote = `${JSON.stringify({ mcpServers: { satchel: { command: 'npx', args: ['-y', 'mcp-remote', URL] } } })}\n`;
  assert.equal(planBridgeRefresh(agent, FILE, mcpRemote, URL, ownBridge, NEW), undefined, 'not a bridge entry');
  assert.equal(planBridgeRefresh(AGENTS.cursor, '/home/ann/.cursor/mcp.json', configWith(OLD), URL, ownBridge, NEW), undefined, 'agents that take a URL');
});

test('another version is a folder beside this one, named the same but for version and platform', () => {
  assert.equal(isOtherVersion(OLD, NEW), true);
  assert.equal(isOtherVersion(`${EXTENSIONS}/satchel-dev.satchel-0.1.0/dist/cli.cjs`, NEW), true, 'a package without a platform');
  assert.equal(isOtherVersion(NEW, NEW), false);
  assert.equal(isOtherVersion(`/elsewhere/satchel-dev.satchel-0.1.0-linux-x64/dist/cli.cjs`, NEW), false);
  assert.equal(isOtherVersion(`${EXTENSIONS}/satchel-dev.satchel-0.1.0-linux-x64/dist/other.cjs`, NEW), false);
});
