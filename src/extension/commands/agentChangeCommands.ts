/**
 * The user's review of what agents did (the Assets view's "Agent changes" node): accept a change
 * (it stays; a proposal is written), revert it (the revision before comes back, a created snippet
 * goes to the trash, a deleted one comes back; a proposal is dropped), accept them all, and open
 * the diff of one. Each takes the tree node or a change id (tests, keybindings).
 */
import * as vscode from 'vscode';
import type { AcceptAllResult, AgentChange, ReviewResult } from '../../client/agentChanges.ts';
import type { ChangeSides } from '../views/agentChangeDiff.ts';
import type { AgentChangesNode } from '../views/agentChangesNode.ts';
import { connected, withStatus, type CommandMap, type Services } from './services.ts';

export type AgentChangeArg = AgentChangesNode | string | undefined;

export function agentChangeCommands(s: Services): CommandMap {
  const section = s.assets.agentChanges;

  /** The change a command is about: the node's, or the listed one with that id (else the host's). */
  const resolve = async (arg: AgentChangeArg): Promise<AgentChange> => {
    if (arg && typeof arg === 'object' && arg.type === 'agentChange') return arg.change;
    if (typeof arg === 'string') return section.change(arg) ?? (await connected(s.server).client.agentChanges.get(arg));
    throw new Error('Pick a change under Agent changes in the Assets view.');
  };

  /** After a review: the list and the snippet's entry read again at once, not when the streams say so. */
  const refreshed = async (result: ReviewResult): Promise<void> => {
    await section.reload();
    if (result.asset !== undefined) await s.assets.reload(result.asset);
  };

  const revert = async (arg: AgentChangeArg): Promise<ReviewResult> => {
    const change = await resolve(arg);
    const { client } = connected(s.server);
    const result = await withStatus(`Reverting ${change.agent.name}'s change…`, () => client.agentChanges.revert(change.id));
    await refreshed(result);
    void vscode.window.setStatusBarMessage(`$(discard) ${revertedText(change)}`, 5_000);
    return result;
  };

  return {
    'satchel.agentChange.accept': async (arg: AgentChangeArg): Promise<ReviewResult> => {
      const change = await resolve(arg);
      const { client } = connected(s.server);
      const result = await withStatus(`Accepting ${change.agent.name}'s change…`, () => client.agentChanges.accept(change.id));
      await refreshed(result);
      void vscode.window.setStatusBarMessage(`$(check) Accepted: ${change.name}`, 4_000);
      return result;
    },
    'satchel.agentChange.revert': revert,
    // The same for a proposal, named as what it does to one: nothing of it was ever written.
    'satchel.agentChange.reject': revert,
    'satchel.agentChanges.acceptAll': async (): Promise<AcceptAllResult> => {
      const { client } = connected(s.server);
      const result = await withStatus('Accepting every agent change…', () => client.agentChanges.acceptAll());
      await section.reload();
      if (result.failed.length > 0) {
        const [first] = result.failed;
        void vscode.window.showWarningMessage(
          `Accepted ${result.accepted.length} agent changes; ${result.failed.length} could not be applied and stay listed: ${first!.message}`,
        );
      } else {
        void vscode.window.setStatusBarMessage(`$(check-all) Accepted ${result.accepted.length} agent changes`, 4_000);
      }
      return result;
    },
    'satchel.agentChange.showDiff': async (arg: AgentChangeArg): Promise<ChangeSides> => {
      const change = await resolve(arg);
      return section.diffs.open(connected(s.server).client, change);
    },
  };
}

function revertedText(change: AgentChange): string {
  if (change.status === 'proposed') return `Rejected ${change.agent.name}'s proposal for ${change.name}`;
  if (change.kind === 'created') return `Moved ${change.name} (made by ${change.agent.name}) to the trash`;
  if (change.kind === 'deleted') return `Brought back ${change.name}`;
  return `Restored ${change.name} as it was before ${change.agent.name}'s change`;
}
