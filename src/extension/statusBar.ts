/** The status bar item: port and role; click for the server menu; flashes when a suggestion arrives. */
import * as vscode from 'vscode';
import type { Role } from '../hosting/hosting.ts';
import { Owner } from '../core/lifecycle.ts';
import type { ServerController } from './serverController.ts';

export class StatusBar extends Owner {
  private readonly item: vscode.StatusBarItem;
  private flashTimer: NodeJS.Timeout | undefined;
  private role: Role = { kind: 'starting' };

  constructor(server: ServerController) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('satchel.status', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'Satchel';
    this.item.command = 'satchel.server.menu';
    this._register(server.onDidChangeRole((role) => this.render(role)));
    this.render(server.role);
    this.item.show();
  }

  /** Quiet-mode signal: a brief highlight instead of a notification. */
  flash(message: string): void {
    clearTimeout(this.flashTimer);
    this.item.text = `$(lightbulb) Satchel: ${message}`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.flashTimer = setTimeout(() => this.render(this.role), 4_000);
  }

  get text(): string {
    return this.item.text;
  }

  private render(role: Role): void {
    this.role = role;
    this.item.backgroundColor = undefined;
    switch (role.kind) {
      case 'starting':
        this.item.text = '$(loading~spin) Satchel';
        this.item.tooltip = 'Satchel is starting its server';
        break;
      case 'host':
        this.item.text = `$(server) Satchel :${role.port}`;
        this.item.tooltip = `Satchel serves ${role.url} from this window (host). Click for options.`;
        break;
      case 'client':
        this.item.text = `$(plug) Satchel :${role.port}`;
        this.item.tooltip = role.cannotHost
          ? `Satchel uses the server at ${role.url} (client); this window cannot host one itself: ${role.cannotHost.message}`
          : `Satchel uses the server of another window at ${role.url} (client). Click for options.`;
        break;
      case 'waiting':
        this.item.text = '$(sync~spin) Satchel';
        this.item.tooltip = 'Another process holds the data directory; waiting for it or to take over.';
        break;
      case 'failed':
        this.item.text = '$(error) Satchel';
        this.item.tooltip = `The server could not start: ${role.error.message}`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
  }

  override dispose(): void {
    clearTimeout(this.flashTimer);
    super.dispose();
  }
}
