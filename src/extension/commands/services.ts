/** What command handlers work with: the server connection and the views, passed explicitly. */
import * as vscode from 'vscode';
import type { ServerController, Connection } from '../serverController.ts';
import type { AssetsView } from '../views/assetsView.ts';
import type { ConversationsView } from '../views/conversationsView.ts';
import type { ModelsView } from '../views/modelsView.ts';
import type { CopyConnector } from '../copyConnector.ts';
import type { AssetDocuments } from '../assetDocuments.ts';
import type { Log } from '../log.ts';
import type { TemplatePreviews } from '../templatePreview.ts';
import type { SnippetHistory } from '../history/snippetHistory.ts';

export interface Services {
  readonly server: ServerController;
  readonly assets: AssetsView;
  readonly conversations: ConversationsView;
  readonly models: ModelsView;
  readonly connector: CopyConnector;
  readonly documents: AssetDocuments;
  /** Where a proposed snippet template is confirmed. */
  readonly templates: TemplatePreviews;
  readonly log: Log;
  /** Show History and Restore: a snippet's revisions. */
  readonly history: SnippetHistory;
}

/**
 * A handler declares the arguments it takes (a tree node of its view, or values from tests and
 * keybindings). `never[]` makes every such handler fit one map without losing its own types.
 */
export type CommandHandler = (...args: never[]) => unknown;
export type CommandMap = Record<string, CommandHandler>;

/** The connection, or a clear error the command wrapper shows. */
export function connected(server: ServerController): Connection {
  const connection = server.connection;
  if (!connection) throw new Error('Satchel has no server connection yet (see Satchel: Show Log).');
  return connection;
}

/** Runs `work` with a window progress indicator. */
export function withStatus<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, work);
}
