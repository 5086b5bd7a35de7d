/**
 * The parts of connecting that are not one agent's round trip: where each agent's file is on each
 * platform, which entries count as Pieces', TOML written in ways that cannot be edited in place,
 * the rules block, and why YAML is edited with `yaml` rather than js-yaml.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dump, load } from 'js-yaml';
import { parse as parseToml } from 'smol-toml';
import { AGENTS, type AgentId, type Where } from '../../../src/core/connect/agentTargets.ts';
import { planConnect, planDisconnect } from '../../../src/core/connect/connectPlan.ts';
import { isPiecesEntry, isPiecesUrl } from '../../../src/core/connect/piecesEntries.ts';
import { planRules, RULES } from '../../../src/core/connect/rulesBlock.ts';
import { ConfigFileError } from '../../../src/core/connect/serverMap.ts';
import { yamlMapServerMap } from '../../../src/core/connect/yamlServerMap.ts';
import { BRIDGE } from './agentFixtures.ts';

const URL_NOW = 'http://127.0.0.1:39300/mcp';
const NOW = { url: URL_NOW, bridge: BRIDGE };

test('each agent reads its file from the documented place on Windows, macOS and Linux', () => {
  const windows: Where = { home: 'C:\\Users\\ann', platform: 'win32', env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' } };
  const mac: Where = { home: '/Users/ann', platform: 'darwin', env: {} };
  const linux: Where = { home: '/home/ann', platform: 'linux', env: { XDG_CONFIG_HOME: '/home/ann/.cfg' } };
  const expected: Record<AgentId, [string, string, string]> = {
    'claude-code': ['C:\\Users\\ann\\.claude.json', '/Users/ann/.claude.json', '/home/ann/.claude.json'],
    'claude-desktop': [
      'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
      '/home/ann/.cfg/Claude/claude_desktop_config.json',
    ],
    cursor: ['C:\\Users\\ann\\.cursor\\mcp.json', '/Users/ann/.cursor/mcp.json', '/home/ann/.cursor/mcp.json'],
    windsurf: ['C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json', '/Users/ann/.codeium/windsurf/mcp_config.json', '/home/ann/.codeium/windsurf/mcp_config.json'],
    vscode: ['C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\mcp.json', '/Users/ann/Library/Application Support/Code/User/mcp.json', '/home/ann/.cfg/Code/User/mcp.json'],
    continue: ['C:\\Users\\ann\\.continue\\config.yaml', '/Users/ann/.continue/config.yaml', '/home/ann/.continue/config.yaml'],
    codex: ['C:\\Users\\ann\\.codex\\config.toml', '/Users/ann/.codex/config.toml', '/home/ann/.codex/config.toml'],
    gemini: ['C:\\Users\\ann\\.gemini\\settings.json', '/Users/ann/.gemini/settings.json', '/home/ann/.gemini/settings.json'],
    zed: ['C:\\Users\\ann\\AppData\\Roaming\\Zed\\settings.json', '/Users/ann/.config/zed/settings.json', '/home/ann/.cfg/zed/settings.json'],
    goose: ['C:\\Users\\ann\\AppData\\Roaming\\Block\\goose\\config\\config.yaml', '/Users/ann/.config/goose/config.yaml', '/home/ann/.cfg/goose/config.yaml'],
  };
  for (const [id, [onWindows, onMac, onLinux]] of Object.entries(expected)) {
    const agent = AGENTS[id as AgentId];
    assert.equal(agent.configPath(windows), onWindows, `${id} on Windows`);
    assert.equal(agent.configPath(mac), onMac, `${id} on macOS`);
    assert.equal(agent.configPath(linux), onLinux, `${id} on Linux`);
  }
  // The variables that move a whole tool's folder are honoured.
  assert.equal(AGENTS.codex.configPath({ ...linux, env: { CODEX_HOME: '/opt/codex' } }), '/opt/codex/config.toml');
  assert.equal(AGENTS['claude-code'].configPath({ ...linux, env: { CLAUDE_CONFIG_DIR: '/opt/claude' } }), '/opt/claude/.claude.json');
});

test("Pieces' entries are told apart by their URL, directly or through a bridge", () => {
  assert.ok(isPiecesUrl('http://localhost:39300/model_context_protocol/2025-03-26/mcp'));
  assert.ok(isPiecesUrl('http://127.0.0.1:39333/model_context_protocol/2024-11-05/sse'));
  assert.ok(isPiecesUrl('http://localhost:1000/model_context_protocol/2024-11-05/sse'), 'older PiecesOS');
  assert.ok(!isPiecesUrl('http://localhost:39334/model_context_protocol/2025-03-26/mcp'), 'outside the range');
  assert.ok(!isPiecesUrl('http://127.0.0.1:39300/mcp'), "Satchel's own path");
  assert.ok(!isPiecesUrl('https://example.com:39300/model_context_protocol/x'), 'not this machine');
  assert.ok(isPiecesEntry({ command: 'npx', args: ['-y', 'mcp-remote', 'http://localhost:39300/model_context_protocol/2024-11-05/sse'] }));
  assert.ok(!isPiecesEntry({ command: 'pieces', args: ['mcp', 'start'] }));
});

test('TOML: a server written as an inline table is refused, not guessed at; a quoted table header is found', () => {
  const codex = AGENTS.codex;
  const inline = 'mcp_servers = { satchel = { url = "http://127.0.0.1:39301/mcp" } }\n';
  assert.throws(() => planConnect(codex, 'config.toml', inline, NOW), (error: unknown) => error instanceof ConfigFileError && /cannot edit in place/.test(error.message));
  assert.throws(() => planDisconnect(codex, 'config.toml', inline), ConfigFileError);

  const quoted = '[mcp_servers."satchel"]\nurl = "http://127.0.0.1:39301/mcp" # old port\n\n[mcp_servers.satchel.env]\nA = "1"\n\n[other]\nx = 1\n';
  const moved = planConnect(codex, 'config.toml', quoted, NOW);
  assert.deepEqual(JSON.parse(JSON.stringify(parseToml(moved.after))), { mcp_servers: { satchel: { url: URL_NOW } }, other: { x: 1 } });
  const gone = planDisconnect(codex, 'config.toml', moved.after);
  assert.equal(gone.after, '[other]\nx = 1\n');
});

test('YAML keeps comments through an edit where js-yaml (load, then dump) drops them', () => {
  const text = '# my provider\nGOOSE_PROVIDER: anthropic # chosen in goose configure\nextensions: {}\n';
  assert.ok(!dump(load(text)).includes('#'), 'js-yaml loses every comment');
  const map = yamlMapServerMap('extensions')(text, 'config.yaml');
  map.set('satchel', AGENTS.goose.entry(NOW));
  assert.ok(map.text().includes('# my provider') && map.text().includes('# chosen in goose configure'));
});

test('the rules block is added once, replaced on a second run, and removed leaving the file as it was', () => {
  const own = '# My rules\n\nAlways write tests.\n';
  const added = planRules('CLAUDE.md', own, true);
  assert.ok(added.changed);
  assert.ok(added.after.startsWith(own) && added.after.includes(RULES));
  assert.equal(planRules('CLAUDE.md', added.after, true).changed, false, 'a second run changes nothing');
  assert.equal(planRules('CLAUDE.md', added.after, false).after, own);
  const cursor = planRules('satchel.mdc', undefined, true, true);
  assert.match(cursor.after, /^---\ndescription: .*\nalwaysApply: true\n---\n/);
  assert.equal(planRules('CLAUDE.md', undefined, false).changed, false);
});

test("a byte-order mark and Windows line ends are kept", () => {
  const json = '\uFEFF{\r\n  "mcpServers": {\r\n    "other": { "url": "x" }\r\n  }\r\n}\r\n';
  const connected = planConnect(AGENTS.cursor, 'mcp.json', json, NOW);
  assert.ok(connected.after.startsWith('\uFEFF{'));
  assert.ok(!/[^\r]\n/.test(connected.after), 'every line ends with CRLF');
  assert.equal(planDisconnect(AGENTS.cursor, 'mcp.json', connected.after).after, json);

  const yaml = 'GOOSE_PROVIDER: anthropic\r\nextensions:\r\n  developer:\r\n    enabled: true\r\n    type: builtin\r\n    name: developer\r\n';
  const goose = planConnect(AGENTS.goose, 'config.yaml', yaml, NOW);
  assert.ok(!/[^\r]\n/.test(goose.after), 'every line ends with CRLF');
  assert.equal(planDisconnect(AGENTS.goose, 'config.yaml', goose.after).after, yaml);

  const toml = '\uFEFFmodel = "o3"\r\n';
  const codex = planConnect(AGENTS.codex, 'config.toml', toml, NOW);
  assert.ok(codex.after.startsWith('\uFEFFmodel = "o3"\r\n') && !/[^\r]\n/.test(codex.after));
  assert.equal(planDisconnect(AGENTS.codex, 'config.toml', codex.after).after, toml);
});

test("Continue: hub blocks (`uses:`) in mcpServers are never matched nor lost", () => {
  const text = 'name: Local Config\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - uses: anthropic/memory-mcp\n  - name: satchel-notes\n    command: notes\n';
  const connected = planConnect(AGENTS.continue, 'config.yaml', text, NOW);
  assert.ok(connected.after.includes('  - uses: anthropic/memory-mcp\n'));
  assert.match(connected.after, /- name: Satchel\n {4}type: streamable-http\n {4}url: http:\/\/127\.0\.0\.1:39300\/mcp\n$/);
  assert.equal(planDisconnect(AGENTS.continue, 'config.yaml', connected.after).after, text);
});
