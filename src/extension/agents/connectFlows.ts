/**
 * *Satchel: Connect an Agent…* and *Disconnect an Agent…*, and the bridge refresh after an update: pick
 * an agent, see the change to its config file in a diff editor (agentConnections.ts shows it), and write
 * it only when the user says so. The work on the file itself is core/connect's; this is the asking.
 * Loaded from a bundle of its own when first used (dist/agentConnect.cjs, scripts/onDemandSources.mjs):
 * activation, which VS Code counts as Satchel's, has no use for it (docs/performance.md). Exports
 * functions only, as an on-demand module must.
 */
import * as vscode from 'vscode';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AGENT_IDS, AGENTS, type AgentId, type AgentTarget, type McpEndpoint, type StdioBridge, type Where } from '../../core/connect/agentTargets.ts';
import { inspectConfig, planConnect, planDisconnect, type ConfigChange, type ConfigState } from '../../core/connect/connectPlan.ts';
import { readConfigText, writeConfigChange, type WrittenChange } from '../../core/connect/configFiles.ts';
import { planRules } from '../../core/connect/rulesBlock.ts';
import { bridgeScript, planBridgeRefresh } from '../../core/connect/bridgeRefresh.ts';
import { localPath } from '../workspaceFiles.ts';

/** Answers given up front instead of asked. */
export interface ConnectRequest {
  readonly agent: AgentId;
  /** Replace the agent's Pieces entries (asked when undefined and there are some). */
  readonly replacePieces?: boolean;
  /** Write without asking (the diff is still opened). */
  readonly write?: boolean;
  /** Add (connect) or remove (disconnect) the rules block too, without asking. */
  readonly rules?: boolean;
}

export interface ConnectOutcome {
  readonly agent: AgentId;
  readonly change: ConfigChange;
  /** Undefined when nothing was written (no change, or the user said no). */
  readonly written: WrittenChange | undefined;
}

/** What the connect flows need of the extension: where the agents' files are, the bridge, and the diff. */
export interface AgentConnectionHost {
  where(): Where;
  bridge(): StdioBridge;
  showDiff(agent: AgentTarget, change: ConfigChange): Promise<void>;
}

/** Connects an agent to Satchel's MCP endpoint `url`; undefined when the user cancels. */
export function connectAgent(host: AgentConnectionHost, url: string, request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
  return new ConnectFlow(host).connect(url, request);
}

/** Removes Satchel's entry from an agent's file; undefined when the user cancels. */
export function disconnectAgent(host: AgentConnectionHost, request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
  return new ConnectFlow(host).disconnect(request);
}

/**
 * Moves the entries of agents that start only local servers from another version of this extension
 * (whose folder an update removes) to this one's bridge; the files changed.
 */
export function refreshAgentBridges(host: AgentConnectionHost, url: string, log: (line: string) => void): Promise<string[]> {
  return new ConnectFlow(host).refreshBridges(url, log);
}

class ConnectFlow {
  private readonly host: AgentConnectionHost;

  constructor(host: AgentConnectionHost) {
    this.host = host;
  }

  /** Connects an agent to Satchel's MCP endpoint `url`; undefined when the user cancels. */
  async connect(url: string, request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
    const endpoint: McpEndpoint = { url, bridge: this.host.bridge() };
    const agent = request ? AGENTS[request.agent] : await this.pick('Connect an agent to Satchel', endpoint);
    if (!agent) return undefined;
    const file = agent.configPath(this.host.where());
    const before = await readConfigText(file);
    const state = inspectConfig(agent, file, before);
    let replacePieces = request?.replacePieces;
    if (state.pieces.length > 0 && replacePieces === undefined) {
      const replace = 'Replace Pieces';
      const keep = 'Keep Both';
      const names = state.pieces.map((key) => `"${key}"`).join(', ');
      const choice = await vscode.window.showInformationMessage(
        `${agent.name} has an entry for Pieces OS (${names}). Replace it with Satchel's?`,
        { modal: true, detail: 'Satchel answers the Pieces tools too; keeping both lists each tool twice.' },
        replace,
        keep,
      );
      if (choice === undefined) return undefined;
      replacePieces = choice === replace;
    }
    const change = planConnect(agent, file, before, { ...endpoint, replacePieces });
    const written = await this.offer(agent, change, 'Connect', request?.write === true);
    if (written) {
      const backup = written.backup ? ` The original is kept as ${basename(written.backup)}.` : '';
      void vscode.window.showInformationMessage(`Connected ${agent.name} to Satchel (${url}).${backup} Restart ${agent.name} or reload its MCP servers.`);
      await this.offerRules(agent, 'connect', request);
    } else if (!change.changed) {
      void vscode.window.showInformationMessage(`${agent.name} is already connected to Satchel (${url}).`);
    }
    return { agent: agent.id, change, written };
  }

  async refreshBridges(url: string, log: (line: string) => void): Promise<string[]> {
    const bridge = this.host.bridge();
    const own = bridgeScript({ args: bridge.args });
    if (own === undefined) return [];
    const changed: string[] = [];
    for (const id of AGENT_IDS) {
      const agent = AGENTS[id];
      if (!agent.stdio) continue;
      const file = agent.configPath(this.host.where());
      try {
        const change = planBridgeRefresh(agent, file, await readConfigText(file), url, bridge, own);
        if (!change) continue;
        const written = await writeConfigChange(change);
        changed.push(written.file);
        log(`${agent.name}'s Satchel entry ran another version's bridge; it now runs this one's (${written.file}; restart ${agent.name} to use it).`);
      } catch (error) {
        log(`${agent.name}'s Satchel entry could not be updated to this version: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return changed;
  }

  /** Removes Satchel's entry from an agent's file; undefined when the user cancels. */
  async disconnect(request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
    const agent = request ? AGENTS[request.agent] : await this.pick('Disconnect an agent from Satchel', undefined, true);
    if (!agent) return undefined;
    const file = agent.configPath(this.host.where());
    const change = planDisconnect(agent, file, await readConfigText(file));
    const written = await this.offer(agent, change, 'Disconnect', request?.write === true);
    if (written) void vscode.window.showInformationMessage(`Removed Satchel from ${agent.name} (${basename(written.file)}).`);
    else if (!change.changed) void vscode.window.showInformationMessage(`${agent.name} has no Satchel entry.`);
    await this.offerRules(agent, 'disconnect', request);
    return { agent: agent.id, change, written };
  }

  /** Lets the user pick an agent, each shown with where it stands. */
  private async pick(title: string, endpoint: McpEndpoint | undefined, connectedOnly = false): Promise<AgentTarget | undefined> {
    const where = this.host.where();
    const items: (vscode.QuickPickItem & { readonly agent: AgentTarget })[] = [];
    for (const id of AGENT_IDS) {
      const agent = AGENTS[id];
      const file = agent.configPath(where);
      const state = await stateOf(agent, file);
      if (connectedOnly && state !== 'error' && state.satchel === undefined) continue;
      items.push({ agent, label: agent.name, description: describe(agent, state, endpoint), detail: file });
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No agent has a Satchel entry.');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { title, placeHolder: 'The agent whose MCP configuration to change', matchOnDetail: true }))?.agent;
  }

  /** Opens the diff and writes when the user agrees; the written files, or undefined. */
  private async offer(agent: AgentTarget, change: ConfigChange, verb: 'Connect' | 'Disconnect', write: boolean): Promise<WrittenChange | undefined> {
    if (!change.changed) return undefined;
    await this.host.showDiff(agent, change);
    if (!write) {
      const detail = [`The original is kept beside it as ${basename(change.file)}.satchel-backup-<time>.`, agent.note].filter(Boolean).join('\n');
      const choice = await vscode.window.showInformationMessage(`${verb} ${agent.name}: write this change to ${change.file}?`, { modal: true, detail }, verb);
      if (choice !== verb) return undefined;
    }
    return writeConfigChange(change);
  }

  /** Offers (or, given a request, applies) the rules block in the agent's instructions file. */
  private async offerRules(agent: AgentTarget, verb: 'connect' | 'disconnect', request: ConnectRequest | undefined): Promise<void> {
    if (request && request.rules !== true) return;
    // Cursor reads its rules from the project; a remote window's project is on another machine, where this process writes nothing.
    const project = vscode.workspace.workspaceFolders?.[0]?.uri;
    const folder = project?.scheme === 'file' ? localPath(project, 'The project') : undefined;
    const file = agent.id === 'cursor' ? (folder !== undefined ? join(folder, '.cursor', 'rules', 'satchel.mdc') : undefined) : agent.rulesPath?.(this.host.where());
    if (file === undefined) return;
    const change = planRules(file, await readConfigText(file), verb === 'connect', agent.id === 'cursor');
    if (!change.changed) return;
    if (!request) {
      const yes = verb === 'connect' ? 'Add Rules' : 'Remove Rules';
      const question =
        verb === 'connect'
          ? `Also add a short block to ${basename(file)} telling ${agent.name} when to search and save in Satchel?`
          : `Also remove Satchel's rules block from ${basename(file)}?`;
      if ((await vscode.window.showInformationMessage(question, yes, 'No')) !== yes) return;
    }
    await this.offer(agent, change, verb === 'connect' ? 'Connect' : 'Disconnect', request?.write === true);
  }
}

async function stateOf(agent: AgentTarget, file: string): Promise<ConfigState | 'error'> {
  try {
    return inspectConfig(agent, file, await readConfigText(file));
  } catch {
    return 'error';
  }
}

function describe(agent: AgentTarget, state: ConfigState | 'error', endpoint: McpEndpoint | undefined): string {
  if (state === 'error') return '$(warning) its file cannot be read';
  const pieces = state.pieces.length > 0 ? ' · has a Pieces entry' : '';
  if (state.satchel === undefined) return `not connected${pieces}`;
  const current = endpoint === undefined || isDeepStrictEqual(state.satchel, agent.entry(endpoint));
  const elsewhere = agent.stdio ? '$(sync) connected through another Satchel install' : '$(sync) connected to another port';
  return `${current ? '$(check) connected' : elsewhere}${pieces}`;
}
