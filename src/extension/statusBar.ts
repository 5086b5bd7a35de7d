/** The status bar item: port and role; click for the server menu; flashes when a suggestion arrives. */
import * as vscode from 'vscode';
import type { Role } from '../hosting/hosting.ts';
import { Owner } from '../core/lifecycle.ts';
import type { ServerController } from './serverController.ts';

/** How long "host restarted" stays in the status bar. */
const NOTICE_MS = 15_000;

function pidOf(pid: number | undefined): string {
  return pid !== undefined ? ` (pid ${pid})` : '';
}

export class StatusBar extends Owner {
  private readonly item: vscode.StatusBarItem;
  private flashTimer: NodeJS.Timeout | undefined;
  private role: Role = { kind: 'starting' };

  constructor(server: ServerController) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('satchel.status', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'Satchel';
    this.item.command = 'satchel.server.menu';
    this._register(server.onDidChangeRole((role) => this.changed(role)));
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

  /** A role with a notice (the data host stopped, and was started again) shows it a while, highlighted. */
  private changed(role: Role): void {
    this.render(role);
    const notice = role.kind === 'host' || role.kind === 'client' || role.kind === 'waiting' ? role.notice : undefined;
    if (notice === undefined) return;
    this.item.tooltip = `${notice}\n\n${String(this.item.tooltip ?? '')}`;
    if (role.kind !== 'host' && role.kind !== 'client') {
      this.item.text = '$(sync~spin) Satchel: host stopped';
      return;
    }
    clearTimeout(this.flashTimer);
    this.item.text = `$(warning) Satchel :${role.port} host restarted`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.flashTimer = setTimeout(() => this.render(this.role), NOTICE_MS);
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
        this.item.tooltip = `Satchel's data host${pidOf(role.pid)} serves ${role.url} beside VS Code; this window starts it again if it stops. Click for options.`;
        break;
      case 'client':
        this.item.text = `$(plug) Satchel :${role.port}`;
        this.item.tooltip = role.cannotHost
          ? `Satchel uses the server at ${role.url} (client); this window cannot start one itself: ${role.cannotHost.message}`
          : `Satchel uses the data host${pidOf(role.pid)} at ${role.url}, which another window looks after. Click for options.`;
        break;
      case 'waiting':
        this.item.text = '$(sync~spin) Satchel';
        this.item.tooltip = 'Satchel is waiting for its data host to answer (starting, or another process holds the data directory).';
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
