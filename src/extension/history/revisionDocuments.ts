/**
 * Read-only documents of a snippet's revisions (`satchel-revision:`, revisionPaths.ts): one
 * revision's content as it was, or the asset's content now, which follows later changes (the right
 * side of a comparison stays current). Revisions never change once written, so the ones read are
 * kept for a while (a bounded cache): the picker's details, the diff and the restore confirmation
 * read each once.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { RevisionReply } from '../../client/history.ts';
import type { SatchelClient } from '../../client/satchelClient.ts';
import type { ServerController } from '../serverController.ts';
import { CURRENT, parseRevisionPath, REVISION_SCHEME, revisionPath } from './revisionPaths.ts';
import { documentText } from './revisionFormat.ts';

/** Changes to assets within this time are followed by one re-read of the open current documents. */
const FOLLOW_DELAY_MS = 250;

/** At most this many revisions, and about this many bytes of content, are kept read. */
const CACHE_ENTRIES = 24;
const CACHE_BYTES = 16 * 1024 * 1024;

export class RevisionDocuments extends Owner implements vscode.TextDocumentContentProvider {
  private readonly server: ServerController;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly cache = new Map<string, { reply: Promise<RevisionReply>; bytes: number }>();
  private followTimer: NodeJS.Timeout | undefined;

  /** `assetsChanged` fires when any asset changed (the Assets view's live collection). */
  constructor(server: ServerController, assetsChanged: vscode.Event<unknown>) {
    super();
    this.server = server;
    this._register(vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, this));
    // An import changes many assets in a row: the open current documents are read again once after them.
    this._register(
      assetsChanged(() => {
        clearTimeout(this.followTimer);
        this.followTimer = setTimeout(() => this.changed(), FOLLOW_DELAY_MS);
      }),
    );
    this._register({ dispose: () => clearTimeout(this.followTimer) });
    // Another server may hold another library: nothing read from the last one is kept.
    this._register(server.onDidChangeConnection(() => this.cache.clear()));
  }

  uri(asset: string, revision: string, name: string, language: string | undefined): vscode.Uri {
    return vscode.Uri.from({ scheme: REVISION_SCHEME, path: revisionPath(asset, revision, name, language) });
  }

  /** One revision whole (read once, then from the cache). */
  revision(asset: string, revision: string): Promise<RevisionReply> {
    const key = `${asset}\n${revision}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached.reply;
    }
    const entry = { reply: this.client().history.get(asset, revision), bytes: 0 };
    this.cache.set(key, entry);
    entry.reply.then(
      (reply) => {
        entry.bytes = reply.size;
        this.evict(key);
      },
      () => {
        if (this.cache.get(key) === entry) this.cache.delete(key);
      },
    );
    return entry.reply;
  }

  /** The asset's current revision whole (its id from a light read of the asset, the rest from the cache when read before). */
  async current(asset: string): Promise<RevisionReply> {
    const { revision } = await this.client().assets.getRevised(asset, false);
    if (revision === undefined) throw new Error(`The server did not say which revision of asset ${asset} is current.`);
    return this.revision(asset, revision);
  }

  /** Re-reads the open documents of assets' current content (of one asset, or of all). */
  changed(asset?: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== REVISION_SCHEME) continue;
      const path = parseRevisionPath(document.uri.path);
      if (path?.revision === CURRENT && (asset === undefined || path.asset === asset)) this._onDidChange.fire(document.uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const path = parseRevisionPath(uri.path);
    if (!path) return '';
    try {
      const reply = path.revision === CURRENT ? await this.current(path.asset) : await this.revision(path.asset, path.revision);
      return documentText(reply);
    } catch (error) {
      return `(This revision could not be read: ${(error as Error).message})`;
    }
  }

  private client(): SatchelClient {
    const connection = this.server.connection;
    if (!connection) throw new Error('Satchel has no server connection yet (see Satchel: Show Log).');
    return connection.client;
  }

  /** Drops the least recently used revisions past the bounds (never the one just read). */
  private evict(keep: string): void {
    let bytes = 0;
    for (const entry of this.cache.values()) bytes += entry.bytes;
    for (const [key, entry] of this.cache) {
      if (this.cache.size <= CACHE_ENTRIES && bytes <= CACHE_BYTES) break;
      if (key === keep) continue;
      this.cache.delete(key);
      bytes -= entry.bytes;
    }
  }
}
