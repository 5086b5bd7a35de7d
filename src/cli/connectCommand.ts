/**
 * `satchel connect <agent>…` and `satchel disconnect <agent>…`: write (or remove) Satchel's MCP
 * entry in the file each agent reads (core/connect/agentTargets.ts), showing the change as a diff
 * and asking before writing (--yes writes without asking; without a terminal, --yes is required).
 * The original is kept beside the file. `satchel connect --list` says where each agent stands.
 */
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { defaultDataDir } from '../core/dataDir.ts';
import { AGENT_IDS, AGENTS, FIRST_PORT, isAgentId, mcpUrl, stdioBridge, type AgentTarget, type McpEndpoint, type SatchelRuntime, type Where } from '../core/connect/agentTargets.ts';
import { inspectConfig, planConnect, planDisconnect, type ConfigChange } from '../core/connect/connectPlan.ts';
import { readConfigText, writeConfigChange } from '../core/connect/configFiles.ts';
import { planRules } from '../core/connect/rulesBlock.ts';
import { currentHost } from '../hosting/host.ts';
import { canAsk, confirm } from './confirm.ts';
import { hostChoiceOptions, hostUrl } from './hostAddress.ts';

const USAGE = `Usage: satchel connect <agent>… [--port N | --url URL] [--data-dir DIR] [--replace-pieces | --keep-pieces] [--rules] [--yes]
       satchel disconnect <agent>… [--rules] [--yes]
       satchel connect --list [--port N | --url URL] [--data-dir DIR]
  Writes Satchel's MCP server (http://127.0.0.1:<port>/mcp, the port of the host serving the data
  directory) into the file the agent reads, after showing the change. Agents:
    ${AGENT_IDS.join(', ')}
  --replace-pieces: remove the agent's entries for Pieces OS (asked otherwise, when a terminal is there).
  --rules: also add (or, with disconnect, remove) a short block in the agent's instructions file
    (CLAUDE.md, AGENTS.md, GEMINI.md, .goosehints; for Cursor, .cursor/rules/satchel.mdc in this folder).
  --yes: write without asking. The original file is kept beside it as <file>.satchel-backup-<time>.`;

interface Choices {
  readonly yes: boolean;
  readonly replacePieces: boolean | undefined;
  readonly rules: boolean;
}

export async function runConnectCommand(args: readonly string[]): Promise<number> {
  return run('connect', args);
}

export async function runDisconnectCommand(args: readonly string[]): Promise<number> {
  return run('disconnect', args);
}

async function run(verb: 'connect' | 'disconnect', args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...hostChoiceOptions,
      'replace-pieces': { type: 'boolean' },
      'keep-pieces': { type: 'boolean' },
      rules: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || (positionals.length === 0 && !values.list)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const unknown = positionals.filter((name) => !isAgentId(name));
  if (unknown.length > 0) throw new Error(`Unknown agent ${unknown.join(', ')}: one of ${AGENT_IDS.join(', ')}`);
  if (values['replace-pieces'] && values['keep-pieces']) throw new Error('--replace-pieces and --keep-pieces cannot be given together');
  const where: Where = { home: homedir(), platform: process.platform, env: process.env };
  const choices: Choices = {
    yes: values.yes === true,
    replacePieces: values['replace-pieces'] ? true : values['keep-pieces'] ? false : undefined,
    rules: values.rules === true,
  };
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const url = verb === 'connect' || values.list ? await endpoint(values.url, values.port, dataDir) : undefined;
  // Agents that start only local servers run this Satchel's `mcp-stdio`: to the data directory's
  // host (found again when its port changes) unless an address was given.
  const given = values.url !== undefined || values.port !== undefined;
  const target = url !== undefined ? { url, bridge: stdioBridge(cliRuntime(), given ? { url } : { dataDir }) } : undefined;
  if (values.list) {
    await list(where, target ?? { url: mcpUrl(FIRST_PORT), bridge: stdioBridge(cliRuntime(), { dataDir }) });
    return 0;
  }
  let failed = 0;
  for (const id of positionals.filter(isAgentId)) {
    const agent = AGENTS[id];
    try {
      const file = agent.configPath(where);
      const change = target !== undefined ? await connectChange(agent, file, target, choices) : planDisconnect(agent, file, await readConfigText(file));
      const wrote = await offer(agent, change, verb, choices);
      if (choices.rules) await offerRules(agent, where, verb, choices);
      if (wrote && verb === 'connect') console.log(`Restart ${agent.name} (or reload its MCP servers) to use Satchel at ${agent.stdio ? `${url} through satchel mcp-stdio` : url}.`);
    } catch (error) {
      failed++;
      console.error(`${agent.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

/** This process's Node and script, which the bridge entry runs (with ELECTRON_RUN_AS_NODE=1 when the Node is an Electron). */
function cliRuntime(): SatchelRuntime {
  const script = process.argv[1];
  if (script === undefined) throw new Error('cannot tell which script runs satchel, so the bridge entry cannot name it');
  return { execPath: process.execPath, execArgv: process.execArgv, script: resolve(script), ...(process.versions.electron !== undefined ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}) };
}

/** The MCP URL: given, on a given port, or on the port of the host serving the data directory. */
async function endpoint(url: string | undefined, portText: string | undefined, dataDir: string): Promise<string> {
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]+\/\S*$/.test(url)) throw new Error(`--url must be an http(s) URL, not ${url}`);
    return url;
  }
  if (portText !== undefined) {
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be a port number, not ${portText}`);
    return mcpUrl(port);
  }
  // A data directory that does not exist has no host (and probing would create it). A host that
  // is starting gets the few seconds it takes to write its port file.
  if (existsSync(dataDir) && currentHost(dataDir).hosted) return `${await hostUrl(dataDir)}/mcp`;
  process.stderr.write(
    `No Satchel host serves ${dataDir} now; using port ${FIRST_PORT}, the one Satchel takes first. ` +
      'If Satchel later starts on another port (another program holds 39300), run this again.\n',
  );
  return mcpUrl(FIRST_PORT);
}

async function connectChange(agent: AgentTarget, file: string, target: McpEndpoint, choices: Choices): Promise<ConfigChange> {
  const before = await readConfigText(file);
  let replacePieces = choices.replacePieces;
  const { pieces } = inspectConfig(agent, file, before);
  if (pieces.length > 0 && replacePieces === undefined) {
    const names = pieces.map((key) => `"${key}"`).join(', ');
    if (choices.yes || !canAsk()) {
      console.log(`${agent.name} also has an entry for Pieces OS (${names}); it is kept (--replace-pieces removes it).`);
      replacePieces = false;
    } else {
      replacePieces = await confirm(`${agent.name} has an entry for Pieces OS (${names}). Replace it with Satchel's?`);
    }
  }
  return planConnect(agent, file, before, { ...target, replacePieces });
}

/** Shows the change and writes it when the user agrees (or gave --yes); true when written. */
async function offer(agent: AgentTarget, change: ConfigChange, verb: 'connect' | 'disconnect', choices: Choices): Promise<boolean> {
  if (!change.changed) {
    console.log(verb === 'connect' ? `${agent.name}: already connected (${change.file}).` : `${agent.name}: no Satchel entry in ${change.file}; nothing to remove.`);
    return false;
  }
  if (agent.note && verb === 'connect') console.log(`Note: ${agent.note}`);
  console.log(patchOf(change));
  if (!choices.yes) {
    if (!canAsk()) throw new Error('not written: there is no terminal to ask; run again with --yes to write without asking');
    if (!(await confirm(`Write this change to ${change.file}?`))) {
      console.log(`${agent.name}: nothing written.`);
      return false;
    }
  }
  const written = await writeConfigChange(change);
  const done = verb === 'connect' ? 'connected' : 'disconnected';
  console.log(`${agent.name}: ${done}; wrote ${written.file}${written.backup ? ` (the original is kept as ${written.backup})` : ''}.`);
  return true;
}

async function offerRules(agent: AgentTarget, where: Where, verb: 'connect' | 'disconnect', choices: Choices): Promise<void> {
  const cursor = agent.id === 'cursor';
  const file = cursor ? join(process.cwd(), '.cursor', 'rules', 'satchel.mdc') : agent.rulesPath?.(where);
  if (file === undefined) {
    console.log(`${agent.name} has no user-level instructions file; no rules block written.`);
    return;
  }
  const change = planRules(file, await readConfigText(file), verb === 'connect', cursor);
  if (!change.changed) {
    console.log(`${agent.name}: the rules block in ${file} is ${verb === 'connect' ? 'already there' : 'not there'}.`);
    return;
  }
  console.log(patchOf(change));
  if (!choices.yes) {
    if (!canAsk()) throw new Error('rules not written: there is no terminal to ask; run again with --yes');
    if (!(await confirm(`Write this change to ${file}?`))) return;
  }
  const written = await writeConfigChange(change);
  console.log(`${agent.name}: rules block ${verb === 'connect' ? 'written to' : 'removed from'} ${written.file}.`);
}

function patchOf(change: ConfigChange): string {
  const from = change.before === undefined ? '/dev/null' : change.file;
  return createTwoFilesPatch(from, change.file, change.before ?? '', change.after, undefined, undefined, { context: 3 }).replace(/^=+\n/m, '');
}

/** Each agent's file, and whether it points at Satchel (at `target`), at Pieces, or cannot be read. */
async function list(where: Where, target: McpEndpoint): Promise<void> {
  for (const id of AGENT_IDS) {
    const agent = AGENTS[id];
    const file = agent.configPath(where);
    let state: string;
    try {
      const text = await readConfigText(file);
      const found = inspectConfig(agent, file, text);
      const current = isDeepStrictEqual(found.satchel, agent.entry(target));
      const how = agent.stdio ? 'through satchel mcp-stdio' : target.url;
      state =
        text === undefined
          ? 'no file yet'
          : found.satchel === undefined
            ? 'not connected'
            : current
              ? `connected (${how})`
              : `connected ${agent.stdio ? 'with another bridge command' : 'to another address'}: run satchel connect again`;
      if (found.pieces.length > 0) state += `; Pieces entry: ${found.pieces.join(', ')}`;
    } catch (error) {
      state = `cannot read: ${error instanceof Error ? error.message : String(error)}`;
    }
    console.log(`${id.padEnd(15)} ${agent.name.padEnd(24)} ${state}\n${' '.repeat(16)}${file}`);
  }
}
