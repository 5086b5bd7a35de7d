/**
 * Says so when this window's library is on a remote machine and empty (remoteHost.ts decides), once
 * per data directory served: a window never silently starts an empty library in a codespace or a
 * container. Offers the sync remote, the documentation, and silence.
 */
import * as vscode from 'vscode';
import { hostname } from 'node:os';
import { Owner } from '../core/lifecycle.ts';
import type { ServerController } from './serverController.ts';
import { SECTION, type Settings } from './settings.ts';
import type { Log } from './log.ts';
import { remoteLogLine, remoteNotice, runsRemotely, type HostFacts, type RemoteAction, type RemoteNotice } from './remoteHost.ts';

export const REMOTE_DOCS_URL = 'https://github.com/satchel-dev/satchel/blob/main/docs/remote.md';
/** The sync area's own command for the remote, when this build has it (else its settings open). */
const SET_SYNC_REMOTE = 'satchel.sync.setRemote';

/** A view whose records tell whether the library is empty, once its first frame is in. */
export interface LibraryContents {
  loaded(): Promise<void>;
  count(): number;
}

export interface RemoteNoticeDeps {
  readonly server: ServerController;
  readonly settings: () => Settings;
  readonly log: Log;
  readonly extensionKind: vscode.ExtensionKind;
  readonly contents: readonly LibraryContents[];
}

export class RemoteNotices extends Owner {
  private readonly deps: RemoteNoticeDeps;
  private checkedDataDir: string | undefined;
  /** The latest check: the action the user chose, or undefined (nothing shown, or dismissed). */
  last: Promise<RemoteAction | undefined> = Promise.resolve(undefined);
  /** The notice on screen now, if any. */
  showing: RemoteNotice | undefined;

  constructor(deps: RemoteNoticeDeps) {
    super();
    this.deps = deps;
    this._register(
      deps.server.onDidChangeConnection((connection) => {
        const dataDir = deps.server.dataDir;
        if (!connection || dataDir === undefined || dataDir === this.checkedDataDir) return;
        this.checkedDataDir = dataDir;
        this.last = this.check();
      }),
    );
  }

  get host(): HostFacts {
    return {
      remoteName: vscode.env.remoteName,
      onWorkspaceSide: this.deps.extensionKind === vscode.ExtensionKind.Workspace,
      inBrowser: vscode.env.uiKind === vscode.UIKind.Web,
      machine: hostname(),
    };
  }

  /** Shows the notice if it applies now; resolves with the action chosen. */
  async check(): Promise<RemoteAction | undefined> {
    const host = this.host;
    const dataDir = this.deps.server.dataDir;
    // Most windows are local: they never wait for the library.
    if (!runsRemotely(host) || dataDir === undefined) return undefined;
    this.deps.log.info(remoteLogLine(host, dataDir));
    await Promise.all(this.deps.contents.map((view) => view.loaded()));
    const settings = this.deps.settings();
    const notice = remoteNotice(host, {
      dataDir,
      empty: this.deps.contents.every((view) => view.count() === 0),
      syncRemote: settings.syncRemote,
      warn: settings.warnOnRemoteHost,
    });
    if (!notice) return undefined;
    this.deps.log.warn(notice.message);
    this.showing = notice;
    let choice: RemoteAction | undefined;
    try {
      choice = await vscode.window.showWarningMessage(notice.message, ...notice.actions);
    } finally {
      this.showing = undefined;
    }
    await this.act(choice);
    return choice;
  }

  private async act(choice: RemoteAction | undefined): Promise<void> {
    if (choice === 'Set Sync Remote…') {
      const commands = await vscode.commands.getCommands(true);
      if (commands.includes(SET_SYNC_REMOTE)) await vscode.commands.executeCommand(SET_SYNC_REMOTE);
      else await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.sync`);
    } else if (choice === 'Learn More') {
      await vscode.env.openExternal(vscode.Uri.parse(REMOTE_DOCS_URL));
    } else if (choice === "Don't Show Again") {
      await vscode.workspace.getConfiguration(SECTION).update('remote.warnOnRemoteHost', false, vscode.ConfigurationTarget.Global);
    }
  }
}
