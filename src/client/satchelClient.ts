/**
 * The typed client of one Satchel server: HTTP areas over one keep-alive pool, and the WebSocket
 * streams the views live-update from.
 */
import type { ModelDownloadProgress, StreamedIdentifiers } from '../core/piecesTypes.ts';
import type { Disposable } from '../core/events.ts';
import { HttpTransport } from './http.ts';
import { StreamConnection, type StreamOptions } from './streams.ts';
import { AssetsClient } from './assets.ts';
import { ConnectorClient } from './connector.ts';
import { ConversationsClient } from './conversations.ts';
import { ModelsClient } from './models.ts';
import { ImportsClient } from './imports.ts';
import { SnippetsClient } from './snippets.ts';
import { HistoryClient } from './history.ts';
import { AUTHOR_HEADER, authorHeader } from '../wire/history.ts';
import type { Author } from '../core/history/authors.ts';
import { BackupsClient } from './backups.ts';
import { SyncClient } from './sync.ts';
import { AgentChangesClient } from './agentChanges.ts';
import { agentChangeOperations } from '../wire/agentChanges.ts';
import type { AgentChangeIdentifiers } from '../wire/agentChanges.ts';
import { TrashClient } from './trash.ts';
import { SecretsClient } from './secrets.ts';
import { MemoriesClient } from './memories.ts';
import { pathOf } from '../wire/operation.ts';
import { hostOperations } from '../wire/host.ts';
import { assetOperations } from '../wire/assets.ts';
import { snippetOperations } from '../wire/snippets.ts';
import { conversationOperations } from '../wire/conversations.ts';
import { modelOperations } from '../wire/models.ts';

export interface SatchelClientOptions {
  readonly timeoutMs?: number;
  readonly stream?: StreamOptions;
  /** Who this client's writes are by (the Satchel-Author header); without one the host takes it for a Pieces client. */
  readonly author?: Author;
}

export class SatchelClient implements Disposable {
  readonly baseUrl: string;
  readonly assets: AssetsClient;
  readonly connector: ConnectorClient;
  readonly conversations: ConversationsClient;
  readonly models: ModelsClient;
  /** Snippet files from other tools (Satchel's own operation). */
  readonly imports: ImportsClient;
  /** Assets as editor snippets (Satchel's own operations). */
  readonly snippets: SnippetsClient;
  /** Assets' revisions: list, read, restore, and the edit (Satchel's own operations). */
  readonly history: HistoryClient;
  /** Copies of the store in the host's backups folder (Satchel's own operation). */
  readonly backups: BackupsClient;
  /** The library synced with a git remote (Satchel's own operations). */
  readonly sync: SyncClient;
  /** What agents changed, for the user's review; and the doors agents write through (Satchel's own operations). */
  readonly agentChanges: AgentChangesClient;
  /** Deleted assets and conversations: list, restore, delete forever, empty (Satchel's own operations). */
  readonly trash: TrashClient;
  /** Secrets found in snippets: "Not a Secret", sync with secrets, counts, the scan (docs/secrets.md). */
  readonly secrets: SecretsClient;
  /** The memories agents saved, with their cited files checked. */
  readonly memories: MemoriesClient;
  private readonly http: HttpTransport;
  private readonly streamOptions: StreamOptions;
  private readonly streams = new Set<StreamConnection<unknown>>();

  constructor(baseUrl: string, options: SatchelClientOptions = {}) {
    this.http = new HttpTransport(baseUrl, {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.author !== undefined ? { headers: { [AUTHOR_HEADER]: authorHeader(options.author) } } : {}),
    });
    this.baseUrl = this.http.baseUrl;
    this.streamOptions = options.stream ?? {};
    this.assets = new AssetsClient(this.http);
    this.connector = new ConnectorClient(this.http);
    this.conversations = new ConversationsClient(this.http);
    this.models = new ModelsClient(this.http);
    this.imports = new ImportsClient(this.http);
    this.snippets = new SnippetsClient(this.http);
    this.history = new HistoryClient(this.http);
    this.backups = new BackupsClient(this.http);
    this.sync = new SyncClient(this.http);
    this.agentChanges = new AgentChangesClient(this.http);
    this.trash = new TrashClient(this.http);
    this.secrets = new SecretsClient(this.http);
    this.memories = new MemoriesClient(this.http);
  }

  health(timeoutMs?: number): Promise<string> {
    return this.http.call(hostOperations.health, timeoutMs !== undefined ? { timeoutMs } : {});
  }

  version(): Promise<string> {
    return this.http.call(hostOperations.version);
  }

  assetIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream(assetOperations.streamIdentifiers.path);
  }

  /**
   * The asset identifiers stream whose connect frame names only the newest RECENT_IDENTIFIERS
   * (wire/snippets.ts) rather than every asset; its change frames are the same.
   */
  recentAssetIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream(snippetOperations.streamRecent.path);
  }

  conversationIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream(conversationOperations.streamIdentifiers.path);
  }

  modelIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream(modelOperations.streamIdentifiers.path);
  }

  /** Every listed agent change's id on connect, then one frame per change of the list (`removed` once reviewed). */
  agentChangeIdentifiers(): StreamConnection<AgentChangeIdentifiers> {
    return this.stream(agentChangeOperations.streamIdentifiers.path);
  }

  downloadProgress(model: string): StreamConnection<ModelDownloadProgress> {
    return this.stream(pathOf(modelOperations.downloadProgress, { model }));
  }

  /** A stream the client owns until either side disposes it. */
  stream<T>(path: string): StreamConnection<T> {
    const connection: StreamConnection<T> = new StreamConnection<T>(this.baseUrl.replace(/^http/, 'ws') + path, {
      ...this.streamOptions,
      onDispose: () => this.streams.delete(connection as StreamConnection<unknown>),
    });
    this.streams.add(connection as StreamConnection<unknown>);
    return connection;
  }

  dispose(): void {
    for (const stream of [...this.streams]) stream.dispose();
    void this.http.close();
  }
}

export { ClientError } from './errors.ts';
export type { AssetEdit, WriteCondition } from './history.ts';
export { assetText, assetLanguage, type ExportType } from './assets.ts';
export type { TrackedUse } from './connector.ts';
export type { StreamConnection } from './streams.ts';
