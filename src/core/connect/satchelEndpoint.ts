/**
 * Satchel's MCP endpoint as agents are pointed at it: the URL on a host's port, and the command line
 * of the stdio bridge to it. Apart from the agents' table (agentTargets.ts), which only connecting
 * reads: the extension names the endpoint at activation.
 */

/** A command line that runs `satchel mcp-stdio` (cli/mcpStdioCommand.ts) on this machine. */
export interface StdioBridge {
  readonly command: string;
  readonly args: readonly string[];
  /** Set for the command: ELECTRON_RUN_AS_NODE=1 when it is VS Code's own executable. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Where an agent is pointed: Satchel's streamable HTTP URL, and the bridge to it over stdio. */
export interface McpEndpoint {
  readonly url: string;
  readonly bridge: StdioBridge;
}

/**
 * The Satchel that runs the bridge: a Node (or VS Code's Electron run as Node) and the CLI's
 * script, `dist/cli.cjs` in the extension's folder or wherever `satchel` was installed.
 */
export interface SatchelRuntime {
  readonly execPath: string;
  readonly execArgv?: readonly string[];
  readonly script: string;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The bridge to the host of a data directory (found by its port file, started when none runs) or
 * to the host at a URL. Absolute paths: agents start servers with a PATH of their own (Claude
 * Desktop on macOS sees no shell profile), where neither `node` nor `satchel` may be found.
 */
export function stdioBridge(runtime: SatchelRuntime, to: { readonly dataDir: string } | { readonly url: string }): StdioBridge {
  const target = 'dataDir' in to ? ['--data-dir', to.dataDir] : ['--url', to.url];
  return {
    command: runtime.execPath,
    args: [...(runtime.execArgv ?? []), runtime.script, 'mcp-stdio', ...target],
    ...(runtime.env !== undefined && Object.keys(runtime.env).length > 0 ? { env: { ...runtime.env } } : {}),
  };
}

/** Satchel's MCP endpoint on a host's port (streamable HTTP). */
export function mcpUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}

/** The port Satchel takes first when it is free, and so the one to name when no host runs. */
export const FIRST_PORT = 39300;
