/**
 * The agents Satchel can connect to, each with the file it reads its MCP servers from on Windows,
 * macOS and Linux, that file's format, and the entry that points it at Satchel's MCP endpoint.
 * Sources for every path and shape are listed in docs/agents.md ("Connect an agent").
 */
import { posix, win32 } from 'node:path';
import { jsonServerMap } from './jsonServerMap.ts';
import { tomlServerMap } from './tomlServerMap.ts';
import { yamlListServerMap, yamlMapServerMap } from './yamlServerMap.ts';
import type { ServerMapReader } from './serverMap.ts';
import type { McpEndpoint } from './satchelEndpoint.ts';

export { FIRST_PORT, mcpUrl, stdioBridge, type McpEndpoint, type SatchelRuntime, type StdioBridge } from './satchelEndpoint.ts';

export const AGENT_IDS = ['claude-code', 'claude-desktop', 'cursor', 'windsurf', 'vscode', 'continue', 'codex', 'gemini', 'zed', 'goose'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

/** Where the user's files are: the home folder, the platform, and the environment variables that move them. */
export interface Where {
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface AgentTarget {
  readonly id: AgentId;
  readonly name: string;
  readonly format: 'JSON' | 'JSONC' | 'TOML' | 'YAML';
  /** The user-level file the agent reads its MCP servers from. */
  configPath(where: Where): string;
  readonly reader: ServerMapReader;
  /** The key (or, in a list, the name) of Satchel's entry. */
  readonly key: string;
  /** Satchel's entry: the MCP URL, or for an agent that starts only local servers, the bridge. */
  entry(endpoint: McpEndpoint): unknown;
  /** It starts only local (stdio) servers from its file: its entry runs `satchel mcp-stdio`. */
  readonly stdio?: true;
  /** A line the user should read before connecting, when there is one. */
  readonly note?: string;
  /** The user-level instructions file the agent reads, for the optional rules block. */
  rulesPath?(where: Where): string;
}

/** Whether an entry runs Satchel's bridge (of any install: the paths change with each update of the extension). */
export function isBridgeEntry(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null || !('args' in entry) || !Array.isArray(entry.args)) return false;
  return entry.args.includes('mcp-stdio');
}

export const SATCHEL_KEY = 'satchel';
const DESCRIPTION = "Satchel: the user's saved code snippets, conversations and memories on this machine";

function pathsOf(where: Where): typeof posix {
  return where.platform === 'win32' ? win32 : posix;
}

/** %APPDATA% on Windows. */
function appData(where: Where): string {
  return where.env.APPDATA ?? pathsOf(where).join(where.home, 'AppData', 'Roaming');
}

/** $XDG_CONFIG_HOME, else ~/.config. */
function xdgConfig(where: Where): string {
  return where.env.XDG_CONFIG_HOME ?? pathsOf(where).join(where.home, '.config');
}

/** The per-user folder of an Electron app: %APPDATA%\X, ~/Library/Application Support/X, ~/.config/X. */
function appConfigDir(where: Where, name: string): string {
  const path = pathsOf(where);
  if (where.platform === 'win32') return path.join(appData(where), name);
  if (where.platform === 'darwin') return path.join(where.home, 'Library', 'Application Support', name);
  return path.join(xdgConfig(where), name);
}

export const AGENTS: Readonly<Record<AgentId, AgentTarget>> = {
  'claude-code': {
    id: 'claude-code',
    name: 'Claude Code',
    format: 'JSON',
    // User scope: top-level `mcpServers` of ~/.claude.json (inside $CLAUDE_CONFIG_DIR when that is set).
    configPath: (where) => pathsOf(where).join(where.env.CLAUDE_CONFIG_DIR ?? where.home, '.claude.json'),
    reader: jsonServerMap(['mcpServers'], false),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ type: 'http', url }),
    note: 'Claude Code rewrites ~/.claude.json while it runs: quit it first (or run `claude mcp add --scope user --transport http satchel <url>`).',
    rulesPath: (where) => pathsOf(where).join(where.env.CLAUDE_CONFIG_DIR ?? pathsOf(where).join(where.home, '.claude'), 'CLAUDE.md'),
  },
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: 'JSON',
    configPath: (where) => pathsOf(where).join(appConfigDir(where, 'Claude'), 'claude_desktop_config.json'),
    reader: jsonServerMap(['mcpServers'], false),
    key: SATCHEL_KEY,
    // Its config file starts only local (stdio) servers: Satchel's own bridge, with nothing fetched at run time.
    entry: ({ bridge }) => ({ command: bridge.command, args: [...bridge.args], ...(bridge.env ? { env: { ...bridge.env } } : {}) }),
    stdio: true,
    note: "Claude Desktop starts only local servers from its config file: the entry runs Satchel's bridge (`satchel mcp-stdio`) with this Satchel's files, and starts a Satchel host when none runs.",
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    format: 'JSON',
    configPath: (where) => pathsOf(where).join(where.home, '.cursor', 'mcp.json'),
    reader: jsonServerMap(['mcpServers'], false),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ url }),
  },
  windsurf: {
    id: 'windsurf',
    name: 'Windsurf',
    format: 'JSON',
    configPath: (where) => pathsOf(where).join(where.home, '.codeium', 'windsurf', 'mcp_config.json'),
    reader: jsonServerMap(['mcpServers'], false),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ serverUrl: url }),
  },
  vscode: {
    id: 'vscode',
    name: 'VS Code (user mcp.json)',
    format: 'JSONC',
    configPath: (where) => pathsOf(where).join(appConfigDir(where, 'Code'), 'User', 'mcp.json'),
    reader: jsonServerMap(['servers'], true),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ type: 'http', url }),
    note: 'Where the Satchel extension is installed VS Code finds Satchel by itself; this entry is for VS Code windows and profiles without it.',
  },
  continue: {
    id: 'continue',
    name: 'Continue',
    format: 'YAML',
    configPath: (where) => pathsOf(where).join(where.env.CONTINUE_GLOBAL_DIR ?? pathsOf(where).join(where.home, '.continue'), 'config.yaml'),
    // A config.yaml must name itself; a file Satchel creates starts as Continue's own default does.
    reader: yamlListServerMap('mcpServers', { name: 'Local Config', version: '1.0.0', schema: 'v1' }),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ name: 'Satchel', type: 'streamable-http', url }),
  },
  codex: {
    id: 'codex',
    name: 'Codex CLI',
    format: 'TOML',
    configPath: (where) => pathsOf(where).join(where.env.CODEX_HOME ?? pathsOf(where).join(where.home, '.codex'), 'config.toml'),
    reader: tomlServerMap('mcp_servers'),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ url }),
    rulesPath: (where) => pathsOf(where).join(where.env.CODEX_HOME ?? pathsOf(where).join(where.home, '.codex'), 'AGENTS.md'),
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    format: 'JSON',
    configPath: (where) => pathsOf(where).join(where.home, '.gemini', 'settings.json'),
    reader: jsonServerMap(['mcpServers'], true),
    key: SATCHEL_KEY,
    // `httpUrl` is streamable HTTP; `url` would be taken for SSE.
    entry: ({ url }) => ({ httpUrl: url, description: DESCRIPTION }),
    rulesPath: (where) => pathsOf(where).join(where.home, '.gemini', 'GEMINI.md'),
  },
  zed: {
    id: 'zed',
    name: 'Zed',
    format: 'JSONC',
    configPath: (where) => {
      const path = pathsOf(where);
      if (where.platform === 'win32') return path.join(appData(where), 'Zed', 'settings.json');
      if (where.platform === 'linux') return path.join(where.env.FLATPAK_XDG_CONFIG_HOME ?? xdgConfig(where), 'zed', 'settings.json');
      return path.join(where.home, '.config', 'zed', 'settings.json');
    },
    reader: jsonServerMap(['context_servers'], true),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ url }),
  },
  goose: {
    id: 'goose',
    name: 'Goose',
    format: 'YAML',
    configPath: (where) => {
      const path = pathsOf(where);
      if (where.platform === 'win32') return path.join(appData(where), 'Block', 'goose', 'config', 'config.yaml');
      return path.join(xdgConfig(where), 'goose', 'config.yaml');
    },
    reader: yamlMapServerMap('extensions'),
    key: SATCHEL_KEY,
    entry: ({ url }) => ({ enabled: true, type: 'streamable_http', name: SATCHEL_KEY, description: DESCRIPTION, uri: url, timeout: 300 }),
    // Goose reads global hints from beside its config file.
    rulesPath: (where) => pathsOf(where).join(pathsOf(where).dirname(AGENTS.goose.configPath(where)), '.goosehints'),
  },
};
