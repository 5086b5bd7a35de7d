/**
 * `satchel mcp-stdio [--data-dir DIR | --port N | --url URL]`: Satchel's MCP server on stdin and
 * stdout, for agents that start only local (stdio) servers, such as Claude Desktop. Messages are
 * relayed to the host serving the data directory (client/mcpRelay.ts), found by its port file.
 *
 * When no host serves the directory, one is started the way a VS Code window starts it (detached,
 * `--managed`, leaving after 10 idle minutes; hosting/hostCommand.ts): an agent is often opened
 * without VS Code, and Pieces users are used to their MCP server simply being there. With --port
 * or --url nothing is started: the host there is the user's own.
 *
 * Ends when stdin closes (the agent quit or restarts its servers). Stdout carries only MCP: every
 * other line goes to stderr, which agents keep as the server's log.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpRelay, type RelayHost } from '../client/mcpRelay.ts';
import { defaultDataDir } from '../core/dataDir.ts';
import { mcpUrl } from '../core/connect/agentTargets.ts';
import { currentHost } from '../hosting/host.ts';
import { readPortFile, type PortFile } from '../hosting/portFile.ts';
import { hostLogSince, spawnDataHost } from '../hosting/hostCommand.ts';
import { EXIT_SERVED_ELSEWHERE } from '../hosting/hostExit.ts';
import { hostChoiceOptions } from './hostAddress.ts';

const USAGE = `Usage: satchel mcp-stdio [--data-dir DIR | --port N | --url URL] [--no-start]
  Serves Satchel's MCP tools on stdin/stdout, relayed to the Satchel host of the data directory
  (or the one on port N, or at URL). For agents that start only local servers, e.g. Claude Desktop:
    {"command": "satchel", "args": ["mcp-stdio"]}
  When no host serves the data directory, one is started (it leaves after 10 idle minutes);
  --no-start answers the agent's requests with an error instead.`;

/** How long a request waits for a host to start or come back (a large store takes a while to open). */
const FIND_HOST_MS = 30_000;
const POLL_MS = 100;
/** What a VS Code window gives the host it starts (extension/settings.ts DEFAULT_HOST_IDLE_MINUTES). */
const IDLE_MINUTES = 10;
/** After stdin closed: requests already received are answered within this (`echo … | satchel mcp-stdio`); an agent that closes stdin waits 2 s before SIGTERM. */
const DRAIN_MS = 1500;
/** After that: what is still open (a keep-alive socket) is not waited for. */
const EXIT_GRACE_MS = 500;

export async function runMcpStdioCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...hostChoiceOptions,
      start: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowNegative: true,
  });
  if (values.help || positionals.length > 0) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if ([values['data-dir'], values.port, values.url].filter((value) => value !== undefined).length > 1) {
    throw new Error('mcp-stdio takes one of --data-dir, --port and --url');
  }
  // Stdout is the protocol's: a stray console.log from anything loaded would break the agent's framing.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const log = (line: string): void => void process.stderr.write(`[satchel mcp-stdio] ${line}\n`);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const fixed = fixedHost(values.port, values.url);
  const locate = fixed ?? dataDirHosts(dataDir, values.start !== false, log);
  const current = fixed ? undefined : () => portFileHost(dataDir);

  const relay = new McpRelay({ agent: new StdioServerTransport(), locate, log, ...(current ? { current } : {}) });
  const stdinClosed = new Promise<void>((done) => {
    process.stdin.once('end', done);
    process.stdin.once('close', done);
  });
  await relay.start();
  await stdinClosed;
  await relay.drain(DRAIN_MS);
  await relay.close();
  setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GRACE_MS).unref();
  return 0;
}

/** The host at --port or --url, when given: always that one. */
function fixedHost(portText: string | undefined, urlText: string | undefined): ((lost?: RelayHost) => Promise<RelayHost>) | undefined {
  if (portText !== undefined) {
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be a port number, not ${portText}`);
    urlText = mcpUrl(port);
  }
  if (urlText === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new Error(`--url must be an http(s) URL, not ${urlText}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--url must be an http(s) URL, not ${urlText}`);
  const host: RelayHost = { url, identity: url.href };
  return () => Promise.resolve(host);
}

function portFileHost(dataDir: string): RelayHost | undefined {
  const file = readPortFile(dataDir);
  return file && hostOf(file);
}

function hostOf(file: PortFile): RelayHost {
  return { url: new URL(mcpUrl(file.port)), identity: `${file.pid}@${file.started}` };
}

/**
 * The host named by the data directory's port file; after `lost`, a host other than that one.
 * When no process holds the directory, a host is started (once per search) unless `start` is off.
 */
function dataDirHosts(dataDir: string, start: boolean, log: (line: string) => void): (lost?: RelayHost) => Promise<RelayHost> {
  return async (lost) => {
    const deadline = Date.now() + FIND_HOST_MS;
    let child: { process: ChildProcess; logStart: number; exit?: number | null } | undefined;
    for (;;) {
      const file = readPortFile(dataDir);
      if (file !== undefined && hostOf(file).identity !== lost?.identity) return hostOf(file);
      // The lock is not probed while the host started here starts: the probe would take it for an instant.
      if (child === undefined || child.exit === EXIT_SERVED_ELSEWHERE) {
        // A directory that does not exist has no host (and the lock probe would create it).
        if (!existsSync(dataDir) || !currentHost(dataDir).hosted) {
          if (!start) throw new Error(`No Satchel host serves ${dataDir} (mcp-stdio was given --no-start). Open VS Code with Satchel, or run \`satchel\`.`);
          child = startHost(dataDir, log);
        }
      } else if (child.exit !== undefined) {
        const said = hostLogSince(dataDir, child.logStart).trim();
        throw new Error(`The Satchel host started for ${dataDir} ended (exit code ${child.exit})${said ? `: ${said.split('\n').at(-1)}` : ''}`);
      }
      if (Date.now() > deadline) throw new Error(`No Satchel host answered for ${dataDir} within ${FIND_HOST_MS / 1000} s; see host.log there.`);
      await new Promise((wake) => setTimeout(wake, POLL_MS));
    }
  };
}

/** A host for `dataDir` on this Node and this script, as a VS Code window starts one. */
function startHost(dataDir: string, log: (line: string) => void): { process: ChildProcess; logStart: number; exit?: number | null } {
  const script = process.argv[1];
  if (script === undefined) throw new Error('mcp-stdio cannot tell which script it runs, so it cannot start a host');
  const { child, logStart } = spawnDataHost({ execPath: process.execPath, execArgv: process.execArgv, script }, { dataDir, idleMinutes: IDLE_MINUTES });
  log(`no Satchel host served ${dataDir}; started one (pid ${child.pid ?? '?'}, log: host.log there)`);
  const started: { process: ChildProcess; logStart: number; exit?: number | null } = { process: child, logStart };
  child.once('exit', (code) => (started.exit = code));
  child.once('error', () => (started.exit = null));
  return started;
}
