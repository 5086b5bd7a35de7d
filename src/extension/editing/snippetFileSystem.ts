/**
 * The `satchel:` file system: a saved snippet opens as a normal, editable document (its language
 * from the file name's extension), and its description as a Markdown document beside it. Ctrl+S
 * writes to the host and resolves once the host has the write on disk; a snippet changed elsewhere
 * meanwhile brings up VS Code's own "file is newer" Compare / Overwrite (see snippetVersions.ts);
 * `workspace.fs.rename` renames the snippet. Everything goes through the HTTP client, so it works
 * in a window that is a client of another window's host.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import { ClientError } from '../../client/errors.ts';
import type { ServerController } from '../serverController.ts';
import type { CollectionChange } from '../liveCollection.ts';
import { fileNameFor } from '../languageNames.ts';
import { assetLanguage } from '../../client/assets.ts';
import { contentLocation, descriptionFileName, descriptionLocation, parseSnippetLocation, renameOf, SNIPPET_SCHEME, type SnippetPart, type SnippetPath } from './snippetPaths.ts';
import { SnippetChangedError, SnippetVersions } from './snippetVersions.ts';
import { clientSnippetStore, renameSnippet } from './snippetStore.ts';

/** The editable document of a snippet's code. */
export function snippetUri(id: string, name: string, language: string | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: SNIPPET_SCHEME, ...contentLocation(id, name, language) });
}

/** The editable Markdown document of a snippet's description. */
export function descriptionUri(id: string, name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SNIPPET_SCHEME, ...descriptionLocation(id, name) });
}

/** The snippet a `satchel:` document belongs to, and which of its documents it is. */
export function snippetOf(uri: vscode.Uri): { id: string; part: SnippetPart } | undefined {
  if (uri.scheme !== SNIPPET_SCHEME) return undefined;
  const path = parseSnippetLocation(uri);
  return path?.kind === 'file' ? { id: path.id, part: path.part } : undefined;
}

export class SnippetFileSystem extends Owner implements vscode.FileSystemProvider {
  private readonly server: ServerController;
  private readonly versions: SnippetVersions;
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;

  /** `onDidChangeAssets`: the ids the Assets view's stream saw change, so open documents reload. */
  constructor(server: ServerController, onDidChangeAssets: vscode.Event<CollectionChange>) {
    super();
    this.server = server;
    this.versions = new SnippetVersions(clientSnippetStore(() => this.client()));
    this._register(vscode.workspace.registerFileSystemProvider(SNIPPET_SCHEME, this, { isCaseSensitive: true }));
    this._register(onDidChangeAssets(({ ids, full }) => (full ? this.changedAll() : this.changed(...ids))));
    this._register(
      vscode.workspace.onDidCloseTextDocument((closed) => {
        const snippet = snippetOf(closed.uri);
        if (!snippet) return;
        const stillOpen = vscode.workspace.textDocuments.some((document) => {
          const other = snippetOf(document.uri);
          return document !== closed && other?.id === snippet.id && other.part === snippet.part;
        });
        if (!stillOpen) this.versions.forget(snippet.id, snippet.part);
      }),
    );
  }

  /** Tells VS Code that the open documents of these snippets may have changed (it reloads the unmodified ones). */
  changed(...ids: string[]): void {
    const wanted = new Set(ids);
    this.fireForOpen((id) => wanted.has(id));
  }

  private changedAll(): void {
    this.fireForOpen(() => true);
  }

  private fireForOpen(matches: (id: string) => boolean): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const document of vscode.workspace.textDocuments) {
      const snippet = snippetOf(document.uri);
      if (snippet && matches(snippet.id)) events.push({ type: vscode.FileChangeType.Changed, uri: document.uri });
    }
    if (events.length) this._onDidChangeFile.fire(events);
  }

  watch(): vscode.Disposable {
    // Changes are reported for every open document from the Assets view's stream; nothing to start.
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.guard(uri, async () => {
      const path = this.path(uri);
      if (path.kind !== 'file') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
      // The id finds the snippet; of the names, only its own exists, and one a document is open
      // under (it was renamed since). A rename's target must not exist, or VS Code refuses it;
      // that is known from the head, before any content is read.
      const head = await this.versions.head(path.id);
      const own = path.part === 'content' ? snippetUri(path.id, head.name, head.language) : descriptionUri(path.id, head.name);
      if (own.path !== uri.path && !vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())) {
        throw vscode.FileSystemError.FileNotFound(uri);
      }
      const stat = await this.versions.stat(path.id, path.part, head);
      return {
        type: vscode.FileType.File,
        ctime: stat.ctime,
        mtime: stat.mtime,
        size: stat.size,
        ...(stat.readonly ? { permissions: vscode.FilePermission.Readonly } : {}),
      };
    });
  }

  readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return this.guard(uri, async () => {
      const path = this.path(uri);
      if (path.kind !== 'folder') return [];
      const asset = await this.client().assets.get(path.id, false);
      const name = asset.name || 'Untitled';
      if (path.part === 'description') return [[descriptionFileName(name), vscode.FileType.File]];
      return [
        [fileNameFor(name, assetLanguage(asset)), vscode.FileType.File],
        ['description', vscode.FileType.Directory],
      ];
    });
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.guard(uri, () => {
      const path = this.file(uri);
      // VS Code never loads a document with unsaved edits from disk: a read then is another reader
      // (Compare's stored side), and the document still holds the version it loaded.
      const unsaved = vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.toString() === uri.toString());
      return this.versions.read(path.id, path.part, { load: !unsaved });
    });
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    // A snippet's documents exist as long as it does: writing one never creates a snippet.
    return this.guard(uri, () => {
      const path = this.file(uri);
      return this.versions.write(path.id, path.part, content);
    });
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${uri.path}: delete a snippet from the Assets view`);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri): Promise<void> {
    return this.guard(oldUri, async () => {
      const from = this.file(oldUri);
      const to = newUri.scheme === SNIPPET_SCHEME ? parseSnippetLocation(newUri) : undefined;
      if (to?.kind !== 'file' || to.id !== from.id || to.part !== from.part) {
        throw vscode.FileSystemError.NoPermissions(`${newUri.toString()}: a snippet's document can only be renamed in its own folder`);
      }
      const { name, language } = renameOf(from.part, from.fileName, to.fileName);
      if (!name) throw vscode.FileSystemError.NoPermissions(`${newUri.toString()}: a snippet needs a name`);
      await renameSnippet(this.client(), from.id, name, language);
      this._onDidChangeFile.fire([
        { type: vscode.FileChangeType.Changed, uri: oldUri },
        { type: vscode.FileChangeType.Created, uri: newUri },
      ]);
    });
  }

  private client() {
    const connection = this.server.connection;
    if (!connection) throw vscode.FileSystemError.Unavailable('Satchel has no server connection yet (see Satchel: Show Log).');
    return connection.client;
  }

  private path(uri: vscode.Uri): SnippetPath {
    const path = parseSnippetLocation(uri);
    if (!path) throw vscode.FileSystemError.FileNotFound(uri);
    return path;
  }

  private file(uri: vscode.Uri): Extract<SnippetPath, { kind: 'file' }> {
    const path = this.path(uri);
    if (path.kind !== 'file') throw vscode.FileSystemError.FileIsADirectory(uri);
    return path;
  }

  /** One error path: the host's refusals become the file system errors VS Code knows. */
  private async guard<T>(uri: vscode.Uri, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      if (error instanceof ClientError && error.notFound) throw vscode.FileSystemError.FileNotFound(uri);
      if (error instanceof ClientError && error.unreachable) throw vscode.FileSystemError.Unavailable(uri);
      if (error instanceof SnippetChangedError || error instanceof ClientError) throw new vscode.FileSystemError(error.message);
      throw error;
    }
  }
}
