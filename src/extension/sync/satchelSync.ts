/**
 * Sync in VS Code (docs/sync.md): the `satchel.sync.*` settings, Sync Now, a sync on an interval
 * (from the window that hosts the server: one sync per interval however many windows are open)
 * and when a window gains focus, its state in the status bar, and the Conflicts view. Every sync
 * is the server's (POST /satchel/sync); this only asks and shows.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';
import { ClientError } from '../../client/errors.ts';
import type { SyncStatus, SyncSummary } from '../../client/sync.ts';
import { readSyncSettings, SYNC_SECTION, type SyncSettings } from './syncSettings.ts';
import { ConflictsView } from './conflictsView.ts';
import { backupText, noticeText, secretsText, skippedText } from '../../core/sync/syncNotices.ts';

type Reason = 'command' | 'interval' | 'focus';

/** The least time between two syncs a focus change starts. */
const FOCUS_GAP_MS = 60_000;

export class SatchelSync extends Owner {
  private readonly server: ServerController;
  private readonly log: Log;
  private readonly item: vscode.StatusBarItem;
  readonly conflicts: ConflictsView;
  private settings: SyncSettings;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SyncSummary | undefined> | undefined;
  private lastStarted = 0;
  private lastError: string | undefined;

  constructor(server: ServerController, log: Log) {
    super();
    this.server = server;
    this.log = log;
    this.settings = readSyncSettings(vscode.workspace.getConfiguration());
    this.item = this._register(vscode.window.createStatusBarItem('satchel.sync', vscode.StatusBarAlignment.Right, 99));
    this.item.name = 'Satchel Sync';
    this.conflicts = this._register(new ConflictsView(server, log, () => void this.refresh()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SYNC_SECTION)) return;
        this.settings = readSyncSettings(vscode.workspace.getConfiguration());
        this.schedule();
        void this.refresh();
      }),
    );
    this._register(server.onDidChangeRole(() => {
      this.schedule();
      void this.refresh();
    }));
    this._register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && this.settings.onFocus && Date.now() - this.lastStarted > FOCUS_GAP_MS) void this.sync('focus');
      }),
    );
    this.schedule();
  }

  /** The status bar item's text (what the user sees of the sync). */
  get statusText(): string {
    return this.item.text;
  }

  /** Syncs now; a sync already under way is waited for instead of started twice. */
  sync(reason: Reason, confirmDeletes = false): Promise<SyncSummary | undefined> {
    this.running ??= this.run(reason, confirmDeletes).finally(() => {
      this.running = undefined;
      void this.refresh();
    });
    return this.running;
  }

  private async run(reason: Reason, confirmDeletes: boolean): Promise<SyncSummary | undefined> {
    const connection = this.server.connection;
    if (!connection) {
      if (reason === 'command') void vscode.window.showWarningMessage('Satchel\'s server is not running yet; sync again once it is.');
      return undefined;
    }
    // Read now: a setting changed a moment ago may not have reached the change listener yet.
    this.settings = readSyncSettings(vscode.workspace.getConfiguration());
    const remote = this.settings.remote ?? (reason === 'command' ? await this.askRemote() : undefined);
    if (remote === undefined) return undefined;
    this.lastStarted = Date.now();
    this.show('$(sync~spin) Syncing…', `Syncing with ${remote}`);
    const location = reason === 'command' ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
    try {
      const summary = await vscode.window.withProgress({ location, title: 'Satchel: syncing', cancellable: reason === 'command' }, (progress, token) => {
        const stop = new AbortController();
        token.onCancellationRequested(() => stop.abort());
        return connection.client.sync.run({ remote, confirmDeletes, maxDeletePercent: this.settings.maxDeletePercent }, { signal: stop.signal, onProgress: (p) => progress.report({ message: p.total ? `${p.phase} ${p.done}/${p.total}` : p.phase }) });
      });
      this.lastError = undefined;
      this.log.info(`sync: sent ${summary.sent}, received ${summary.received} (${summary.elapsedMs} ms)`);
      for (const notice of summary.notices) void this.tell(noticeText(notice));
      for (const skipped of summary.skipped) this.log.warn(`sync: not applied here (tried again next sync): ${skipped.id}: ${skipped.reason}`);
      const skipped = skippedText(summary.skipped);
      if (skipped !== undefined) void this.warn(skipped);
      const backup = backupText(summary.backup);
      if (backup !== undefined) void vscode.window.showInformationMessage(backup);
      const secrets = secretsText(summary.secrets);
      if (secrets !== undefined) this.log.info(`sync: ${secrets}`);
      // The exception (values sent by choice) is said every time; placeholders alone only in the status bar and log.
      if (summary.secrets !== undefined && summary.secrets.withSecrets.length > 0 && secrets !== undefined) void vscode.window.showInformationMessage(secrets);
      const held = summary.secrets?.redacted ? `, ${summary.secrets.redacted} with secrets redacted` : '';
      if (reason === 'command' && summary.notices.length === 0) vscode.window.setStatusBarMessage(`$(check) Synced: sent ${summary.sent}, received ${summary.received}${held}`, 5_000);
      return summary;
    } catch (error) {
      return this.failed(error, reason);
    }
  }

  private async failed(error: unknown, reason: Reason): Promise<undefined> {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = message;
    this.log.warn(`sync (${reason}) failed: ${message}`);
    if (error instanceof ClientError && error.code === 'aborted') return undefined;
    if (error instanceof ClientError && error.code === 'conflict' && /would delete/.test(message)) {
      // The fail-safe: asked every time, whatever started the sync.
      const choice = await vscode.window.showWarningMessage(message, { modal: true }, 'Sync and Delete');
      if (choice === 'Sync and Delete') await this.run('command', true);
      return undefined;
    }
    if (reason === 'command' || /no git executable/.test(message)) {
      const actions = /no git executable/.test(message) ? ['Install Git', 'Show Log'] : ['Show Log'];
      const choice = await vscode.window.showErrorMessage(`Satchel sync failed: ${message}`, ...actions);
      if (choice === 'Show Log') this.log.show();
      else if (choice === 'Install Git') void vscode.env.openExternal(vscode.Uri.parse('https://git-scm.com/downloads'));
    }
    return undefined;
  }

  private async warn(message: string): Promise<void> {
    if ((await vscode.window.showWarningMessage(message, 'Show Log')) === 'Show Log') this.log.show();
  }

  private async tell(text: { message: string; conflict: boolean }): Promise<void> {
    if (!text.conflict) {
      void vscode.window.showInformationMessage(text.message);
      return;
    }
    if ((await vscode.window.showWarningMessage(text.message, 'Show Conflicts')) === 'Show Conflicts') await this.conflicts.reveal();
  }

  private async askRemote(): Promise<string | undefined> {
    const remote = await vscode.window.showInputBox({
      title: 'Sync Satchel through a git repository',
      prompt: 'A repository your git can push to: git@github.com:you/snippets.git, https://…, or a path to a bare repository',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' || value.trim().startsWith('-') ? 'Give a repository URL or path' : undefined),
    });
    if (remote === undefined) return undefined;
    await vscode.workspace.getConfiguration().update(`${SYNC_SECTION}.remote`, remote.trim(), vscode.ConfigurationTarget.Global);
    return remote.trim();
  }

  /** The interval's timer runs in the window that hosts the server. */
  private schedule(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.settings.remote === undefined || this.settings.intervalMs <= 0 || this.server.role.kind !== 'host') return;
    this.timer = setInterval(() => void this.sync('interval'), this.settings.intervalMs);
  }

  private async refresh(): Promise<void> {
    const connection = this.server.connection;
    let status: SyncStatus | undefined;
    try {
      status = connection ? await connection.client.sync.status() : undefined;
    } catch (error) {
      this.log.warn(`sync status: ${(error as Error).message}`);
    }
    await this.conflicts.refresh(status?.conflicts ?? 0);
    if (this.running) return;
    if (this.settings.remote === undefined && status?.remote === undefined) {
      this.item.hide();
      return;
    }
    if (this.lastError !== undefined) this.show('$(warning) Sync failed', `The last sync failed: ${this.lastError}\nClick to sync again.`, true);
    else if (status && status.conflicts > 0) this.show(`$(git-compare) ${status.conflicts} conflict${status.conflicts === 1 ? '' : 's'}`, 'Snippets changed on two machines at once: open the Conflicts view.', false, 'satchel.sync.showConflicts');
    else if (status?.last) {
      const secrets = secretsText(status.last.secrets);
      this.show('$(sync) Synced', `Last synced with ${status.remote ?? ''} at ${new Date(status.last.at).toLocaleString()}; ${status.changed} change(s) waiting.${secrets !== undefined ? `\n${secrets}` : ''}\nClick to sync now.`);
    }
    else this.show('$(sync) Sync', `Not synced yet with ${this.settings.remote ?? status?.remote ?? ''}. Click to sync now.`);
  }

  private show(text: string, tooltip: string, error = false, command = 'satchel.sync.now'): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  override dispose(): void {
    clearInterval(this.timer);
    super.dispose();
  }
}
