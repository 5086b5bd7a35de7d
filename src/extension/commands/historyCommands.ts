/** A snippet's history: Show History (from the Assets view, or for the snippet in the active editor) and Restore. */
import * as vscode from 'vscode';
import type { CommandMap, Services } from './services.ts';
import { resolveAsset, type AssetArg } from './assetCommands.ts';
import { assetOfDocument } from '../history/revisionPaths.ts';

export function historyCommands(s: Services): CommandMap {
  const { history } = s;

  return {
    'satchel.asset.showHistory': async (arg: AssetArg) => {
      const asset = await resolveAsset(s, arg);
      return asset ? history.show(asset.id) : undefined;
    },
    /** The snippet of the given or active editor (a snippet's code or description, or a revision), else one searched for. */
    'satchel.showHistory': async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      const fromEditor = target ? assetOfDocument(target) : undefined;
      const id = fromEditor ?? (await resolveAsset(s, undefined))?.id;
      return id ? history.show(id) : undefined;
    },
    /** From a revision's document or its diff editor (the title button passes the URI), or with ids. */
    'satchel.revision.restore': async (arg?: vscode.Uri | { asset: string; revision: string }, options?: { confirmed?: boolean }) => {
      const target = arg === undefined || arg instanceof vscode.Uri ? history.revisionOf(arg) : arg;
      if (!target) {
        void vscode.window.showWarningMessage('Open a revision from Show History to restore it.');
        return undefined;
      }
      return history.restore(target.asset, target.revision, options);
    },
  };
}
