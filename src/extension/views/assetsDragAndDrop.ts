/**
 * Drag and drop between the Assets view and the rest of VS Code.
 *
 * Out of the view: a snippet carries its id (Satchel's own mime type) and its editable document
 * (`text/uri-list`). Dropped on an editor while holding Shift, it is inserted at the drop point as
 * Insert at Cursor and completion insert it (a template's tab stops work, plain code goes in as
 * written); dropped without Shift, VS Code opens it, here the editable snippet (VS Code's rule for
 * anything dragged from a view or the Explorer, whose overlay says "Hold Shift to drop into editor").
 *
 * Into the view: files (from the Explorer, an editor's tab, the OS) are saved as snippets named
 * after the file, in its language; they are read through `workspace.fs`, so remote files work,
 * and an open document's unsaved text is what is saved. Text dragged from another application is
 * saved as it is. (VS Code cannot drag a selection out of an editor: Save Selection does that.)
 */
import * as vscode from 'vscode';
import { Emitter, type Event } from '../../core/events.ts';
import { Owner } from '../../core/lifecycle.ts';
import type { Asset } from '../../core/piecesTypes.ts';
import { specificFromFile } from '../../core/classify/hints.ts';
import { renderSnippet } from '../../core/snippets/snippetSyntax.ts';
import { insertableAsset, snippetString, type InsertableText } from '../snippetInsertion.ts';
import { snippetUri } from '../editing/snippetFileSystem.ts';
import { SNIPPET_SCHEME } from '../editing/snippetPaths.ts';
import { assetLanguage } from '../../client/assets.ts';
import { fromVscodeLanguage } from '../languageNames.ts';
import { connected, saveText } from '../saving.ts';
import type { ServerController } from '../serverController.ts';
import type { AssetsNode } from './assetsView.ts';

/** The ids of dragged snippets (a JSON array), for Satchel's drop into editors. */
export const SNIPPETS_MIME = 'application/vnd.satchel.snippets';
const URI_LIST = 'text/uri-list';
const TEXT = 'text/plain';
/** What VS Code adds to a drag that starts in this view (its id, lower-cased). */
const OWN_TREE_MIME = 'application/vnd.code.tree.satchel.assets';
const DROP_KIND = vscode.DocumentDropOrPasteEditKind.Empty.append('satchel', 'snippet');
/** A file whose first bytes hold a NUL is not text. */
const BINARY_PROBE = 8192;

export interface DragAndDropDeps {
  readonly server: ServerController;
  /** The view's copy of an asset (with its content), when it has one. */
  readonly lookup: (id: string) => Asset | undefined;
  /** Reports a use of a snippet (the connector's `track`). */
  readonly inserted: (id: string) => void;
}

export class AssetsDragAndDrop extends Owner implements vscode.TreeDragAndDropController<AssetsNode>, vscode.DocumentDropEditProvider {
  readonly dragMimeTypes = [SNIPPETS_MIME, URI_LIST];
  readonly dropMimeTypes = [URI_LIST, TEXT];
  private readonly deps: DragAndDropDeps;
  private readonly saved = this._register(new Emitter<Asset>());
  /** A drop saved a new asset. */
  readonly onDidSave: Event<Asset> = this.saved.event;

  constructor(deps: DragAndDropDeps) {
    super();
    this.deps = deps;
    this._register(vscode.languages.registerDocumentDropEditProvider({ pattern: '**' }, this, { dropMimeTypes: [SNIPPETS_MIME], providedDropEditKinds: [DROP_KIND] }));
  }

  handleDrag(source: readonly AssetsNode[], dataTransfer: vscode.DataTransfer): void {
    const assets = source.flatMap((node) => (node.type === 'asset' ? [node.asset] : []));
    if (!assets.length) return;
    dataTransfer.set(SNIPPETS_MIME, new vscode.DataTransferItem(JSON.stringify(assets.map((asset) => asset.id))));
    const uris = assets.map((asset) => snippetUri(asset.id, asset.name || 'Untitled', assetLanguage(asset)).toString());
    dataTransfer.set(URI_LIST, new vscode.DataTransferItem(uris.join('\r\n')));
  }

  async handleDrop(_target: AssetsNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    // Items of this view dropped back on it: nothing to save.
    if (dataTransfer.get(OWN_TREE_MIME) || dataTransfer.get(SNIPPETS_MIME)) return;
    const uris = parseUriList((await dataTransfer.get(URI_LIST)?.asString()) ?? '').filter((uri) => uri.scheme !== SNIPPET_SCHEME && hasFileSystem(uri));
    if (token.isCancellationRequested) return;
    if (uris.length) {
      await this.saveFiles(uris, token);
      return;
    }
    const text = await dataTransfer.get(TEXT)?.asString();
    if (token.isCancellationRequested || !text?.trim()) return;
    await this.save({ text });
  }

  async provideDocumentDropEdits(
    _document: vscode.TextDocument,
    _position: vscode.Position,
    dataTransfer: vscode.DataTransfer,
    token: vscode.CancellationToken,
  ): Promise<vscode.DocumentDropEdit | undefined> {
    const ids = parseIds(await dataTransfer.get(SNIPPETS_MIME)?.asString());
    if (!ids.length || token.isCancellationRequested) return undefined;
    const { client } = connected(this.deps.server);
    const snippets = await Promise.all(ids.map(async (id) => insertableAsset(client, this.deps.lookup(id) ?? (await client.assets.get(id)))));
    if (token.isCancellationRequested) return undefined;
    const names = ids.map((id) => this.deps.lookup(id)?.name).filter(Boolean);
    const edit = new vscode.DocumentDropEdit(insertionOf(snippets), names.length === 1 ? `Insert "${names[0]}" from Satchel` : 'Insert snippets from Satchel', DROP_KIND);
    for (const id of ids) this.deps.inserted(id);
    return edit;
  }

  private async saveFiles(uris: readonly vscode.Uri[], token: vscode.CancellationToken): Promise<void> {
    const skipped: string[] = [];
    for (const uri of uris) {
      if (token.isCancellationRequested) return;
      const name = uri.path.split('/').pop() || 'file';
      const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
      if (open) {
        await this.save({ text: open.getText(), language: fromVscodeLanguage(open.languageId) ?? specificFromFile(name, open.getText()), name });
        continue;
      }
      if ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) {
        skipped.push(`${name} (a folder: Import Snippets… reads snippet folders)`);
        continue;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.subarray(0, BINARY_PROBE).includes(0)) {
        skipped.push(`${name} (not text)`);
        continue;
      }
      const text = new TextDecoder().decode(bytes);
      await this.save({ text, language: specificFromFile(name, text), name });
    }
    if (skipped.length) void vscode.window.showWarningMessage(`Satchel did not save ${skipped.join(', ')}.`);
  }

  private async save(text: Parameters<typeof saveText>[1]): Promise<void> {
    const asset = await saveText(this.deps.server, text);
    this.saved.fire(asset);
    void vscode.window.setStatusBarMessage(`$(check) Saved to Satchel: ${asset.name ?? 'asset'}`, 4_000);
  }
}

/** One snippet as a snippet (tab stops and all); several as their texts one after another. */
function insertionOf(snippets: readonly InsertableText[]): vscode.SnippetString {
  if (snippets.length === 1) return snippetString(snippets[0]!);
  return new vscode.SnippetString().appendText(snippets.map((snippet) => (snippet.syntax ? renderSnippet(snippet.text) : snippet.text)).join('\n'));
}

function parseIds(json: string | undefined): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** RFC 2483: one URI a line, `#` lines are comments. */
function parseUriList(list: string): vscode.Uri[] {
  return list
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => {
      try {
        return [vscode.Uri.parse(line, true)];
      } catch {
        return [];
      }
    });
}

/** Whether VS Code can read the URI (a file, a remote file, a virtual one); a web link cannot be. */
function hasFileSystem(uri: vscode.Uri): boolean {
  return vscode.workspace.fs.isWritableFileSystem(uri.scheme) !== undefined || uri.scheme === 'untitled';
}
