/**
 * Composition root in VS Code: builds the log, the server controller, the views, the connector and
 * the commands, each owned here. The server starts after activation has returned.
 */
import * as vscode from 'vscode';
import { Disposable } from './lifecycle.ts';
import { Log } from './log.ts';
import { readSettings, SECTION, SERVER_KEYS, type Settings } from './settings.ts';
import { ServerController } from './serverController.ts';
import { StatusBar } from './statusBar.ts';
import { CopyConnector } from './copyConnector.ts';
import { AssetDocuments } from './assetDocuments.ts';
import { AssetsView } from './views/assetsView.ts';
import { ConversationsView } from './views/conversationsView.ts';
import { ModelsView } from './views/modelsView.ts';
import { Commands } from './commands/index.ts';
import type { Role } from './hostElection.ts';

export class SatchelExtension extends Disposable {
  readonly log = this._register(new Log());
  readonly server: ServerController;
  readonly statusBar: StatusBar;
  readonly connector: CopyConnector;
  readonly documents: AssetDocuments;
  readonly assets: AssetsView;
  readonly conversations: ConversationsView;
  readonly models: ModelsView;
  readonly commands: Commands;
  private settings: Settings;
  /** Resolves with the first role of the current start. */
  started: Promise<Role> = Promise.resolve({ kind: 'starting' });

  constructor(version: string) {
    super();
    this.settings = readSettings(vscode.workspace.getConfiguration(SECTION));
    this.server = this._register(new ServerController(this.log, () => this.settings, version));
    this.statusBar = this._register(new StatusBar(this.server));
    this.connector = this._register(new CopyConnector(this.server, this.statusBar, this.log, () => this.settings.connectorMode));
    this.documents = this._register(new AssetDocuments(this.server));
    this.assets = this._register(new AssetsView(this.server, this.connector, this.log));
    this.conversations = this._register(new ConversationsView(this.server, this.log));
    this.models = this._register(new ModelsView(this.server, this.log));
    this.commands = this._register(
      new Commands({
        server: this.server,
        assets: this.assets,
        conversations: this.conversations,
        models: this.models,
        connector: this.connector,
        documents: this.documents,
        log: this.log,
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        this.settings = readSettings(vscode.workspace.getConfiguration(SECTION));
        if (SERVER_KEYS.some((key) => event.affectsConfiguration(key))) void this.start();
      }),
    );
    this._register(this.server.onDidChangeRole((role) => this.onRole(role)));
  }

  start(): Promise<Role> {
    this.started = this.server.start();
    return this.started;
  }

  private onRole(role: Role): void {
    if (role.kind !== 'failed') return;
    void vscode.window
      .showErrorMessage(`Satchel could not start its server: ${role.error.message}`, 'Show Log', 'Retry')
      .then((choice) => {
        if (choice === 'Show Log') this.log.show();
        else if (choice === 'Retry') void this.start();
      });
  }

  /** Closes the server cleanly (the lock goes to another window). */
  async shutdown(): Promise<void> {
    await this.server.stop();
    this.dispose();
  }
}
