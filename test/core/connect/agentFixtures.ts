/**
 * For each agent: a config file as a user has it (another server, comments where the format takes
 * them, a setting outside the servers), the same with a Pieces entry, and a reader of the servers
 * with the format's own library, to check what was written.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { parse as parseToml } from 'smol-toml';
import type { AgentId, StdioBridge } from '../../../src/core/connect/agentTargets.ts';

/** The bridge a packaged extension on Windows writes: VS Code's executable run as Node, the CLI in the extension's folder. */
export const BRIDGE: StdioBridge = {
  command: 'C:\\Users\\ann\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe',
  args: ['C:\\Users\\ann\\.vscode\\extensions\\satchel-dev.satchel-0.1.0-win32-x64\\dist\\cli.cjs', 'mcp-stdio', '--data-dir', 'C:\\Users\\ann\\.satchel'],
  env: { ELECTRON_RUN_AS_NODE: '1' },
};

export interface AgentFixture {
  /** A file with another server, a comment where the format has them, and a setting elsewhere. */
  readonly existing: string;
  /** The same kind of file with an entry set up for Pieces OS, keyed `piecesKey`. */
  readonly withPieces: string;
  readonly piecesKey: string;
  /** The other server's key, and a text the comment holds (undefined for plain JSON). */
  readonly otherKey: string;
  readonly comment: string | undefined;
  /** The whole file parsed by the format's library. */
  parse(text: string): unknown;
  /** The servers, by key, out of the parsed file. */
  servers(parsed: unknown): Record<string, unknown>;
  /** A setting outside the servers that must survive: its path and value. */
  readonly setting: readonly [readonly string[], unknown];
  /** A malformed file of this format. */
  readonly malformed: string;
}

const PIECES_HTTP = 'http://localhost:39300/model_context_protocol/2025-03-26/mcp';
const PIECES_SSE = 'http://localhost:39300/model_context_protocol/2024-11-05/sse';

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function jsonFixture(container: string, other: unknown, pieces: unknown, jsonc: boolean): AgentFixture {
  const comment = jsonc ? 'my own comment' : undefined;
  const existing = jsonc
    ? `{\n  // ${comment}\n  "theme": "dark",\n  "${container}": {\n    "other": ${JSON.stringify(other)},\n  },\n}\n`
    : `{\n  "theme": "dark",\n  "${container}": {\n    "other": ${JSON.stringify(other)}\n  }\n}\n`;
  const withPieces = `{\n  "theme": "dark",\n  "${container}": {\n    "other": ${JSON.stringify(other)},\n    "Pieces": ${JSON.stringify(pieces)}\n  }\n}\n`;
  return {
    existing,
    withPieces,
    piecesKey: 'Pieces',
    otherKey: 'other',
    comment,
    parse: (text) => parseJsonc(text, [], { allowTrailingComma: true }),
    servers: (parsed) => (at(parsed, [container]) ?? {}) as Record<string, unknown>,
    setting: [['theme'], 'dark'],
    malformed: '{\n  "mcpServers": {\n    "other": { "url": "x" }\n  \n',
  };
}

export const FIXTURES: Readonly<Record<AgentId, AgentFixture>> = {
  'claude-code': jsonFixture('mcpServers', { type: 'stdio', command: 'npx', args: ['x'] }, { type: 'http', url: PIECES_HTTP }, false),
  'claude-desktop': jsonFixture('mcpServers', { command: 'uvx', args: ['y'] }, { command: 'npx', args: ['mcp-remote', PIECES_SSE] }, false),
  cursor: jsonFixture('mcpServers', { url: 'https://example.com/mcp' }, { url: PIECES_HTTP }, false),
  windsurf: jsonFixture('mcpServers', { serverUrl: 'https://example.com/mcp' }, { serverUrl: PIECES_SSE }, false),
  vscode: jsonFixture('servers', { type: 'stdio', command: 'node', args: ['s.js'] }, { type: 'http', url: PIECES_HTTP }, true),
  gemini: jsonFixture('mcpServers', { httpUrl: 'https://example.com/mcp' }, { httpUrl: PIECES_HTTP }, true),
  zed: jsonFixture('context_servers', { command: 'some-command', args: [] }, { url: PIECES_HTTP }, true),
  continue: {
    existing: `# my own comment\nname: Local Config\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: Llama # local\n    provider: ollama\n    model: llama3\nmcpServers:\n  - name: other\n    command: npx\n    args: [x]\n`,
    withPieces: `name: Local Config\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: other\n    command: npx\n    args: [x]\n  - name: Pieces\n    type: streamable-http\n    url: ${PIECES_HTTP}\n`,
    piecesKey: 'pieces',
    otherKey: 'other',
    comment: 'my own comment',
    parse: (text) => parseYaml(text),
    servers: (parsed) => {
      const list = at(parsed, ['mcpServers']);
      const out: Record<string, unknown> = {};
      if (Array.isArray(list)) for (const item of list) out[String((item as { name: string }).name).toLowerCase()] = item;
      return out;
    },
    setting: [['name'], 'Local Config'],
    malformed: 'name: x\nmcpServers:\n  - name: a\n   url: [\n',
  },
  codex: {
    existing: `# my own comment\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "npx"\nargs = ["x"] # why\n\n# the profile below\n[profiles.fast]\nmodel = "o4-mini"\n`,
    withPieces: `model = "o3"\n\n[mcp_servers.other]\ncommand = "npx"\nargs = ["x"]\n\n[mcp_servers.Pieces]\nurl = "${PIECES_HTTP}"\n\n[mcp_servers.Pieces.env]\nA = "1"\n`,
    piecesKey: 'Pieces',
    otherKey: 'other',
    comment: 'my own comment',
    // smol-toml's tables have no prototype; compared as plain JSON values.
    parse: (text) => JSON.parse(JSON.stringify(parseToml(text))),
    servers: (parsed) => (at(parsed, ['mcp_servers']) ?? {}) as Record<string, unknown>,
    setting: [['model'], 'o3'],
    malformed: 'model = "o3\n[mcp_servers.other]\n',
  },
  goose: {
    existing: `# my own comment\nGOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer # built in\n    timeout: 300\n`,
    withPieces: `GOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n  pieces:\n    enabled: true\n    type: sse\n    name: pieces\n    uri: ${PIECES_SSE}\n`,
    piecesKey: 'pieces',
    otherKey: 'developer',
    comment: 'my own comment',
    parse: (text) => parseYaml(text),
    servers: (parsed) => (at(parsed, ['extensions']) ?? {}) as Record<string, unknown>,
    setting: [['GOOSE_PROVIDER'], 'anthropic'],
    malformed: 'extensions:\n  developer:\n    enabled: true\n   type: [\n',
  },
};

export function settingOf(fixture: AgentFixture, parsed: unknown): unknown {
  return at(parsed, fixture.setting[0]);
}
