/**
 * Show History on a snippet, as registered at activation: the revisions' read-only documents
 * (revisionDocuments.ts), the picker while it is open, and which revision an editor shows. What
 * showing, comparing and restoring do is historyFlows.ts, loaded from its own bundle when first used
 * (docs/performance.md, activation).
 */
import * as vscode from 'vscode';
import { MutableDisposable, Owner } from '../../core/lifecycle.ts';
import type { RevisionList, RevisionSummary } from '../../client/history.ts';
import type { SatchelClient } from '../../client/satchelClient.ts';
import type { ServerController } from '../serverController.ts';
import { RevisionDocuments } from './revisionDocuments.ts';
import type { HistoryChoice, HistoryPicker, RevisionPickItem } from './historyPicker.ts';
import { CURRENT, parseRevisionPath, REVISION_SCHEME, type RevisionPath } from './revisionPaths.ts';
import { compareRevision, restoreRevision, showHistory, showRevisionChanges, type HistoryHost } from './historyFlows.ts';

export interface SnippetHistoryOptions {
  readonly server: ServerController;
  /** Fires when any asset changed (the Assets view's live collection): open "current" documents follow. */
  readonly assetsChanged: vscode.Event<unknown>;
  /** After a restore: the views and open documents of the asset read it again. */
  readonly restored: (asset: string) => void;
}

export type { HistoryHost } from './historyFlows.ts';

export class SnippetHistory extends Owner implements HistoryHost {
  readonly documents: RevisionDocuments;
  readonly activePicker = this._register(new MutableDisposable<HistoryPicker>());
  readonly restored: (asset: string) => void;
  private readonly server: ServerController;

  constructor(options: SnippetHistoryOptions) {
    super();
    this.server = options.server;
    this.restored = options.restored;
    this.documents = this._register(new RevisionDocuments(options.server, options.assetsChanged));
  }

  /** The picker while it is open (tests drive it as a user would). */
  get picker(): vscode.QuickPick<RevisionPickItem> | undefined {
    return this.activePicker.value?.quickPick;
  }

  /** Lists the asset's revisions and does what the user picks; resolves with the choice once it is done. */
  show(asset: string): Promise<HistoryChoice | undefined> {
    return showHistory(this, asset);
  }

  /**
   * A revision beside the current text (the current revision itself: what its change did). A
   * deleted asset has no current text: the revision opens alone.
   */
  compare(list: RevisionList, revision: RevisionSummary): Promise<void> {
    return compareRevision(this, list, revision);
  }

  /** What one revision changed: the one before it beside it. */
  showChanges(asset: string, older: RevisionSummary, revision: RevisionSummary): Promise<void> {
    return showRevisionChanges(this, asset, older, revision);
  }

  /**
   * Makes a revision current again after the user confirmed what that changes (`confirmed` skips
   * the question, for tests and keybindings). Answers the asset's new current revision, or
   * undefined when nothing was restored.
   */
  restore(asset: string, revisionId: string, options: { confirmed?: boolean } = {}): Promise<RevisionSummary | undefined> {
    return restoreRevision(this, asset, revisionId, options);
  }

  /**
   * The revision a `satchel-revision:` document, or the diff editor showing it, stands for: a
   * revision's own document, or the revision compared in the diff whose other side is the current
   * text. With no URI, the active editor's.
   */
  revisionOf(uri: vscode.Uri | undefined): RevisionPath | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const target = uri ?? (tab instanceof vscode.TabInputTextDiff ? tab.modified : tab instanceof vscode.TabInputText ? tab.uri : undefined);
    if (!target || target.scheme !== REVISION_SCHEME) return undefined;
    const path = parseRevisionPath(target.path);
    if (!path || path.revision !== CURRENT) return path;
    // The current text: the revision it is compared with is the diff's other side.
    for (const group of vscode.window.tabGroups.all) {
      for (const candidate of group.tabs) {
        const input = candidate.input;
        if (input instanceof vscode.TabInputTextDiff && input.modified.toString() === target.toString() && input.original.scheme === REVISION_SCHEME) {
          const original = parseRevisionPath(input.original.path);
          if (original && original.revision !== CURRENT) return original;
        }
      }
    }
    return undefined;
  }

  client(): SatchelClient {
    const connection = this.server.connection;
    if (!connection) throw new Error('Satchel has no server connection yet (see Satchel: Show Log).');
    return connection.client;
  }
}
