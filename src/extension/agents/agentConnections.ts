/**
 * Where *Connect an Agent…* shows an agent's config change: both sides of the diff are read-only
 * `satchel-agent-config:` documents this provides. What the commands do (pick an agent, ask, write) is
 * connectFlows.ts, loaded from its own bundle when first used; this stays registered from activation so
 * an open diff reads again after a reload. A caller that passes a request (a test, a keybinding) names
 * the agent and its answers instead of being asked.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { basename, extname } from 'node:path';
import type { AgentTarget, StdioBridge, Where } from '../../core/connect/agentTargets.ts';
import type { ConfigChange } from '../../core/connect/connectPlan.ts';
import { ReadOnlyDocuments } from '../readOnlyDocuments.ts';
import { connectAgent, disconnectAgent, refreshAgentBridges, type AgentConnectionHost, type ConnectOutcome, type ConnectRequest } from './connectFlows.ts';

export const AGENT_CONFIG_SCHEME = 'satchel-agent-config';

export type { AgentConnectionHost, ConnectOutcome, ConnectRequest } from './connectFlows.ts';

export class AgentConnections extends ReadOnlyDocuments implements AgentConnectionHost {
  private readonly texts = new Map<string, string>();
  private opened = 0;
  readonly where: () => Where;
  readonly bridge: () => StdioBridge;

  /** `bridge`: the command that runs this extension's `satchel mcp-stdio`, for agents that start only local servers. */
  constructor(bridge: () => StdioBridge, where: () => Where = () => ({ home: homedir(), platform: process.platform, env: process.env })) {
    super(AGENT_CONFIG_SCHEME);
    this.bridge = bridge;
    this.where = where;
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.texts.delete(document.uri.toString())));
  }

  override provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Connects an agent to Satchel's MCP endpoint `url`; undefined when the user cancels. */
  connect(url: string, request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
    return connectAgent(this, url, request);
  }

  /** After an update: agents' entries that ran another version's bridge run this one's; the files changed. */
  refreshBridges(url: string, log: (line: string) => void): Promise<string[]> {
    return refreshAgentBridges(this, url, log);
  }

  /** Removes Satchel's entry from an agent's file; undefined when the user cancels. */
  disconnect(request?: ConnectRequest): Promise<ConnectOutcome | undefined> {
    return disconnectAgent(this, request);
  }

  /** Opens the diff of a change to an agent's file, both sides read-only documents of this scheme. */
  async showDiff(agent: AgentTarget, change: ConfigChange): Promise<void> {
    const version = String(++this.opened);
    const name = basename(change.file, extname(change.file));
    const language = extname(change.file).slice(1) || undefined;
    const left = this.uriOf(`${agent.id}-before`, version, name, language);
    const right = this.uriOf(`${agent.id}-after`, version, name, language);
    this.texts.set(left.toString(), change.before ?? '');
    this.texts.set(right.toString(), change.after);
    const title = `${basename(change.file)} (${agent.name}): ${change.before === undefined ? 'new file' : 'before ↔ after'}`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  override dispose(): void {
    this.texts.clear();
    super.dispose();
  }
}
