/**
 * Read-only previews of assets: `satchel-asset:/<id>/<name>.<ext>` documents whose extension gives
 * VS Code the language (and so the syntax highlighting).
 */
import * as vscode from 'vscode';
import { assetText } from '../client/assets.ts';
import { fileNameFor } from './languages.ts';
import { Owner } from '../core/lifecycle.ts';
import type { ServerController } from './serverController.ts';

export const ASSET_SCHEME = 'satchel-asset';

export function assetUri(id: string, name: string, language: string | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: ASSET_SCHEME, path: `/${encodeURIComponent(id)}/${fileNameFor(name, language)}` });
}

export function assetIdOf(uri: vscode.Uri): string | undefined {
  const segment = uri.path.split('/')[1];
  return segment ? decodeURIComponent(segment) : undefined;
}

export class AssetDocuments extends Owner implements vscode.TextDocumentContentProvider {
  private readonly server: ServerController;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(server: ServerController) {
    super();
    this.server = server;
    this._register(vscode.workspace.registerTextDocumentContentProvider(ASSET_SCHEME, this));
  }

  /** Re-reads open previews of an asset that changed. */
  changed(id: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === ASSET_SCHEME && assetIdOf(document.uri) === id) this._onDidChange.fire(document.uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = assetIdOf(uri);
    const connection = this.server.connection;
    if (!id || !connection) return '';
    try {
      return assetText(await connection.client.assets.get(id));
    } catch (error) {
      return `// This asset could not be read: ${(error as Error).message}`;
    }
  }
}
