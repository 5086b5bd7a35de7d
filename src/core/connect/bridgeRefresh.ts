/**
 * Keeping a stdio agent's bridge entry working across updates of the extension. The entry names
 * `dist/cli.cjs` inside the extension's folder, and VS Code installs each version in a folder of
 * its own (`satchel-dev.satchel-0.1.0-linux-x64`) and deletes the old one: an entry written by the
 * previous version would run a file that is gone. The user chose to connect the agent, so an entry
 * written by another version of this same extension is moved to this one's files; anything else
 * (an entry of the CLI's, or edited by hand) is left as it is.
 */
import { basename, dirname } from 'node:path';
import type { AgentTarget, McpEndpoint, StdioBridge } from './agentTargets.ts';
import { isBridgeEntry } from './agentTargets.ts';
import { inspectConfig, planConnect, type ConfigChange } from './connectPlan.ts';

/** The CLI script an entry runs: the argument before `mcp-stdio`. */
export function bridgeScript(entry: unknown): string | undefined {
  if (!isBridgeEntry(entry)) return undefined;
  const args = (entry as { args: unknown[] }).args;
  const script = args[args.indexOf('mcp-stdio') - 1];
  return typeof script === 'string' ? script : undefined;
}

/**
 * Whether `script` is the CLI of another version of the extension whose CLI is `own`: a folder
 * beside this one, named the same but for the version and platform.
 */
export function isOtherVersion(script: string, own: string): boolean {
  const folder = (path: string): string => dirname(dirname(path));
  const name = (path: string): string => basename(folder(path)).replace(/-\d+\.\d+\.\d+.*$/, '').toLowerCase();
  return script !== own && basename(script) === basename(own) && dirname(folder(script)) === dirname(folder(own)) && name(script) === name(own);
}

/**
 * The change that moves `agent`'s bridge entry to `bridge` (keeping the data directory or address
 * it names), or undefined when there is nothing of ours to move.
 */
export function planBridgeRefresh(agent: AgentTarget, file: string, before: string | undefined, url: string, bridge: StdioBridge, ownScript: string): ConfigChange | undefined {
  if (!agent.stdio || before === undefined) return undefined;
  const current = inspectConfig(agent, file, before).satchel;
  const script = bridgeScript(current);
  if (script === undefined || !isOtherVersion(script, ownScript)) return undefined;
  const args = (current as { args: unknown[] }).args;
  const target = args.slice(args.indexOf('mcp-stdio') + 1).filter((arg): arg is string => typeof arg === 'string');
  const ownArgs = bridge.args.slice(0, bridge.args.indexOf('mcp-stdio') + 1);
  const endpoint: McpEndpoint = { url, bridge: { ...bridge, args: [...ownArgs, ...target] } };
  const change = planConnect(agent, file, before, { ...endpoint, replacePieces: false });
  return change.changed ? change : undefined;
}
