/**
 * Show History on a snippet: its revisions in a picker (historyPicker.ts), a revision compared with
 * the current text in VS Code's diff editor (or with the revision before it, to see what one
 * change did), and a revision restored after a confirmation that says what it changes. Everything
 * goes through the client's history operations; the restore is conditional on the revision the
 * confirmation compared against, so a change made meanwhile (an agent's, another window's) is
 * never overwritten unseen. Loaded from a bundle of its own when first used (dist/historyFlows.cjs,
 * scripts/onDemandSources.mjs); snippetHistory.ts stays registered from activation. Exports functions
 * only, as an on-demand module must.
 */
import * as vscode from 'vscode';
import { supportedLanguages } from '../../core/classify/languages.ts';
import { ClientError } from '../../client/errors.ts';
import type { RevisionList, RevisionSummary } from '../../client/history.ts';
import { HistoryPicker, type HistoryChoice } from './historyPicker.ts';
import { CURRENT } from './revisionPaths.ts';
import { changesTitle, compareTitle, relativeAge, restoreConfirmation, sameContent, stateDifferences } from './revisionFormat.ts';
import type { MutableDisposable } from '../../core/lifecycle.ts';
import type { SatchelClient } from '../../client/satchelClient.ts';
import type { RevisionDocuments } from './revisionDocuments.ts';

/** What the history flows need of the extension. */
export interface HistoryHost {
  readonly documents: RevisionDocuments;
  /** The picker while one is open. */
  readonly activePicker: MutableDisposable<HistoryPicker>;
  restored(asset: string): void;
  client(): SatchelClient;
}

/** Lists the asset's revisions and does what the user picks; resolves with the choice once it is done. */
export function showHistory(host: HistoryHost, asset: string): Promise<HistoryChoice | undefined> {
  return new HistoryFlow(host).show(asset);
}

/** A revision beside the current text (the current revision itself: what its change did). */
export function compareRevision(host: HistoryHost, list: RevisionList, revision: RevisionSummary): Promise<void> {
  return new HistoryFlow(host).compare(list, revision);
}

/** What one revision changed: the one before it beside it. */
export function showRevisionChanges(host: HistoryHost, asset: string, older: RevisionSummary, revision: RevisionSummary): Promise<void> {
  return new HistoryFlow(host).showChanges(asset, older, revision);
}

/** Makes a revision current again after the user confirmed what that changes; the new current revision, or undefined. */
export function restoreRevision(host: HistoryHost, asset: string, revisionId: string, options: { confirmed?: boolean } = {}): Promise<RevisionSummary | undefined> {
  return new HistoryFlow(host).restore(asset, revisionId, options);
}

class HistoryFlow {
  private readonly host: HistoryHost;

  constructor(host: HistoryHost) {
    this.host = host;
  }

  /** Lists the asset's revisions and does what the user picks; resolves with the choice once it is done. */
  async show(asset: string): Promise<HistoryChoice | undefined> {
    const list = await this.host.client().history.list(asset);
    const picker = new HistoryPicker(list, (revision) => this.host.documents.revision(asset, revision));
    this.host.activePicker.value = picker;
    let choice: HistoryChoice | undefined;
    try {
      choice = await picker.choose();
    } finally {
      if (this.host.activePicker.value === picker) this.host.activePicker.value = undefined;
    }
    if (!choice) return undefined;
    if (choice.action === 'restore') await this.restore(asset, choice.revision.id);
    else if (choice.action === 'changes' && choice.older) await this.showChanges(asset, choice.older, choice.revision);
    else await this.compare(list, choice.revision);
    return choice;
  }

  /**
   * A revision beside the current text (the current revision itself: what its change did). A
   * deleted asset has no current text: the revision opens alone.
   */
  async compare(list: RevisionList, revision: RevisionSummary): Promise<void> {
    const current = list.revisions[0];
    const older = list.revisions[list.revisions.findIndex((r) => r.id === revision.id) + 1];
    if (!list.deleted && revision.id === list.current && older) return this.showChanges(list.asset, older, revision);
    const left = await this.opened(list.asset, revision.id, revision);
    if (list.deleted || !current) {
      await vscode.window.showTextDocument(left, { preview: true });
      return;
    }
    const right = await this.opened(list.asset, CURRENT, current);
    await vscode.commands.executeCommand('vscode.diff', left, right, compareTitle(revision, Date.now()), { preview: true });
    await this.sayWhenSameText(list.asset, revision);
  }

  /** What one revision changed: the one before it beside it. */
  async showChanges(asset: string, older: RevisionSummary, revision: RevisionSummary): Promise<void> {
    const left = await this.opened(asset, older.id, older);
    const right = await this.opened(asset, revision.id, revision);
    await vscode.commands.executeCommand('vscode.diff', left, right, changesTitle(revision, Date.now()), { preview: true });
  }

  /**
   * Makes a revision current again after the user confirmed what that changes (`confirmed` skips
   * the question, for tests and keybindings). Answers the asset's new current revision, or
   * undefined when nothing was restored.
   */
  async restore(asset: string, revisionId: string, options: { confirmed?: boolean } = {}): Promise<RevisionSummary | undefined> {
    const [revision, current] = await Promise.all([this.host.documents.revision(asset, revisionId), this.host.documents.current(asset)]);
    if (revision.id === current.id) {
      void vscode.window.showInformationMessage(`That revision of “${current.name}” is the current one: there is nothing to restore.`);
      return undefined;
    }
    if (!options.confirmed) {
      const { message, detail } = restoreConfirmation(revision, current, Date.now());
      const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Restore');
      if (answer !== 'Restore') return undefined;
    }
    let restored: RevisionSummary;
    try {
      restored = await this.host.client().history.restore(asset, revisionId, { expectedRevision: current.id });
    } catch (error) {
      if (!(error instanceof ClientError && error.staleRevision)) throw error;
      this.host.documents.changed(asset);
      const choice = await vscode.window.showWarningMessage(
        `“${current.name}” changed while the restore was being confirmed, so nothing was restored.`,
        'Show History',
      );
      if (choice) void this.show(asset);
      return undefined;
    }
    this.host.documents.changed(asset);
    this.host.restored(asset);
    void vscode.window.setStatusBarMessage(`$(discard) Restored “${revision.name}” as it was ${relativeAge(revision.created, Date.now())}`, 5_000);
    return restored;
  }

  /** The revision's document, opened in its language (the file name gives VS Code most; the rest is set). */
  private async opened(asset: string, revision: string, summary: RevisionSummary): Promise<vscode.Uri> {
    const uri = this.host.documents.uri(asset, revision, summary.name, summary.language);
    const document = await vscode.workspace.openTextDocument(uri);
    const wanted = supportedLanguages.find((info) => info.specific === summary.language)?.vscodeId;
    if (wanted && wanted !== 'plaintext' && document.languageId === 'plaintext' && (await vscode.languages.getLanguages()).includes(wanted)) {
      await vscode.languages.setTextDocumentLanguage(document, wanted);
    }
    return uri;
  }

  /** A revision that changed only the name, language, tags or description has the current text: the diff says "identical", this says what differs. */
  private async sayWhenSameText(asset: string, revision: RevisionSummary): Promise<void> {
    try {
      const [then, now] = await Promise.all([this.host.documents.revision(asset, revision.id), this.host.documents.current(asset)]);
      if (!sameContent(then, now)) return;
      const differences = stateDifferences(now, then);
      const said = differences.length ? `it differs from now in ${differences.join('; ')}` : 'it holds the same as now';
      void vscode.window.setStatusBarMessage(`$(info) Same text as now; ${said}`, 10_000);
    } catch {
      // Only a hint.
    }
  }
}
