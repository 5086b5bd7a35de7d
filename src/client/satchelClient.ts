/**
 * The typed client of one Satchel server: HTTP areas over one keep-alive pool, and the WebSocket
 * streams the views live-update from.
 */
import type { ModelDownloadProgress, StreamedIdentifiers } from '../core/wire.ts';
import type { Disposable } from '../core/events.ts';
import { HttpTransport } from './http.ts';
import { StreamConnection, type StreamOptions } from './streams.ts';
import { AssetsClient } from './assets.ts';
import { ConnectorClient } from './connector.ts';
import { ConversationsClient } from './conversations.ts';
import { ModelsClient } from './models.ts';
import { ImportsClient } from './imports.ts';
import { seg } from './http.ts';

export interface SatchelClientOptions {
  readonly timeoutMs?: number;
  readonly stream?: StreamOptions;
}

export class SatchelClient implements Disposable {
  readonly baseUrl: string;
  readonly assets: AssetsClient;
  readonly connector: ConnectorClient;
  readonly conversations: ConversationsClient;
  readonly models: ModelsClient;
  /** Snippet files from other tools (Satchel's own operation). */
  readonly imports: ImportsClient;
  private readonly http: HttpTransport;
  private readonly streamOptions: StreamOptions;
  private readonly streams = new Set<StreamConnection<unknown>>();

  constructor(baseUrl: string, options: SatchelClientOptions = {}) {
    this.http = new HttpTransport(baseUrl, options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {});
    this.baseUrl = this.http.baseUrl;
    this.streamOptions = options.stream ?? {};
    this.assets = new AssetsClient(this.http);
    this.connector = new ConnectorClient(this.http);
    this.conversations = new ConversationsClient(this.http);
    this.models = new ModelsClient(this.http);
    this.imports = new ImportsClient(this.baseUrl);
  }

  health(timeoutMs?: number): Promise<string> {
    return this.http.text('GET', '/.well-known/health', timeoutMs !== undefined ? { timeoutMs } : {});
  }

  version(): Promise<string> {
    return this.http.text('GET', '/.well-known/version');
  }

  assetIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream('/assets/stream/identifiers');
  }

  conversationIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream('/conversations/stream/identifiers');
  }

  modelIdentifiers(): StreamConnection<StreamedIdentifiers> {
    return this.stream('/models/stream/identifiers');
  }

  downloadProgress(model: string): StreamConnection<ModelDownloadProgress> {
    return this.stream(`/model/${seg(model)}/download/progress`);
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
export { assetText, assetLanguage, type ExportType } from './assets.ts';
export type { TrackedUse } from './connector.ts';
export type { StreamConnection } from './streams.ts';
