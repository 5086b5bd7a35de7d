/**
 * What Satchel's read-only documents share (a snippet's revisions, history/revisionDocuments.ts;
 * the two sides of an agent's change, views/agentChangeDiff.ts): a content provider registered for
 * its scheme while it lives, documents at `<scheme>:/<key>/<version>/<name>.<ext>` (documentPaths.ts),
 * and a way to have VS Code read open ones again.
 */
import * as vscode from 'vscode';
import { Owner } from '../core/lifecycle.ts';
import { documentPath } from './documentPaths.ts';

export abstract class ReadOnlyDocuments extends Owner implements vscode.TextDocumentContentProvider {
  private readonly scheme: string;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(scheme: string) {
    super();
    this.scheme = scheme;
    this._register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
  }

  abstract provideTextDocumentContent(uri: vscode.Uri): string | Promise<string>;

  /** The document of `version` of `key`, named for the tab and the language. */
  protected uriOf(key: string, version: string, name: string, language: string | undefined): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path: documentPath(key, version, name, language) });
  }

  /** Has VS Code read again the open documents of this scheme that `which` picks. */
  protected reread(which: (uri: vscode.Uri) => boolean): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === this.scheme && which(document.uri)) this._onDidChange.fire(document.uri);
    }
  }
}
