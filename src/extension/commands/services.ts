/** What command handlers work with: the server connection and the views, passed explicitly. */
import type { ServerController } from '../serverController.ts';
import type { AssetsView } from '../views/assetsView.ts';
import type { ConversationsView } from '../views/conversationsView.ts';
import type { ModelsView } from '../views/modelsView.ts';
import type { CopyConnector } from '../copyConnector.ts';
import type { SnippetFileSystem } from '../editing/snippetFileSystem.ts';
import type { Log } from '../log.ts';
import type { TemplatePreviews } from '../templatePreview.ts';
import type { SnippetHistory } from '../history/snippetHistory.ts';
import type { SatchelSync } from '../sync/satchelSync.ts';
import type { AgentConnections } from '../agents/agentConnections.ts';
import type { SecretsStatus } from '../secrets/secretsStatus.ts';

export interface Services {
  readonly server: ServerController;
  readonly assets: AssetsView;
  readonly conversations: ConversationsView;
  readonly models: ModelsView;
  readonly connector: CopyConnector;
  /** The editable `satchel:` documents of snippets. */
  readonly documents: SnippetFileSystem;
  /** Where a proposed snippet template is confirmed. */
  readonly templates: TemplatePreviews;
  readonly log: Log;
  /** Show History and Restore: a snippet's revisions. */
  readonly history: SnippetHistory;
  /** Sync through git and its Conflicts view. */
  readonly sync: SatchelSync;
  /** Satchel's MCP entry in other agents' config files. */
  readonly agentConnections: AgentConnections;
  /** The status bar's count of snippets holding secrets (read again after a secret command). */
  readonly secretsStatus: SecretsStatus;
}

/**
 * A handler declares the arguments it takes (a tree node of its view, or values from tests and
 * keybindings). `never[]` makes every such handler fit one map without losing its own types.
 */
export type CommandHandler = (...args: never[]) => unknown;
export type CommandMap = Record<string, CommandHandler>;

export { connected, withStatus } from '../saving.ts';
