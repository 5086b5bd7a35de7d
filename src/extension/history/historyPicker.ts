/**
 * The Show History quick pick over one asset's revision list: a page of revisions at a time (a row
 * at the end loads older ones), each with buttons to restore it or to show what it changed. The
 * tags and description a revision set are read lazily, for the rows shown, and filled into their
 * details as they arrive.
 */
import * as vscode from 'vscode';
import type { Disposable } from '../../core/lifecycle.ts';
import type { RevisionList, RevisionReply, RevisionSummary } from '../../client/history.ts';
import { needsDetails, type RevisionDetails } from './revisionFormat.ts';
import { olderRowLabel, PAGE_SIZE, pickerTitle, revisionRows, type RevisionAction } from './revisionItems.ts';

export interface RevisionPickItem extends vscode.QuickPickItem {
  /** The revision of the row; absent on the row that loads older revisions. */
  readonly revision?: RevisionSummary;
}

/** What the user chose: compare a revision with the current text, see what it changed, or restore it. */
export interface HistoryChoice {
  readonly action: 'compare' | RevisionAction;
  readonly revision: RevisionSummary;
  /** The revision before it (for 'changes'). */
  readonly older: RevisionSummary | undefined;
}

const ACTIONS: readonly RevisionAction[] = ['changes', 'restore'];

const BUTTONS: Record<RevisionAction, vscode.QuickInputButton> = {
  changes: { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Show what this revision changed' },
  restore: { iconPath: new vscode.ThemeIcon('discard'), tooltip: 'Restore this revision…' },
};

export class HistoryPicker implements Disposable {
  readonly quickPick = vscode.window.createQuickPick<RevisionPickItem>();
  private readonly list: RevisionList;
  private readonly read: (revision: string) => Promise<RevisionReply>;
  private readonly details = new Map<string, RevisionDetails>();
  private readonly asked = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private shown = PAGE_SIZE;
  private disposed = false;
  /** Settles the pending choice (undefined when the picker is disposed unanswered, say by another Show History). */
  private settle: ((choice: HistoryChoice | undefined) => void) | undefined;

  /** `read` reads one revision of the asset whole (for its tags and description). */
  constructor(list: RevisionList, read: (revision: string) => Promise<RevisionReply>) {
    this.list = list;
    this.read = read;
    const { title, placeholder } = pickerTitle(list);
    this.quickPick.title = title;
    this.quickPick.placeholder = placeholder;
    this.quickPick.matchOnDescription = true;
    this.quickPick.matchOnDetail = true;
    this.quickPick.keepScrollPosition = true;
    this.render();
  }

  /** Shows the picker; resolves with the choice, or undefined when it is dismissed. */
  choose(): Promise<HistoryChoice | undefined> {
    const chosen = new Promise<HistoryChoice | undefined>((resolve) => {
      this.settle = resolve;
      const answer = (choice: HistoryChoice) => {
        resolve(choice);
        this.quickPick.hide();
      };
      this.subscriptions.push(
        this.quickPick.onDidAccept(() => {
          const item = this.quickPick.activeItems[0];
          if (!item) return;
          if (!item.revision) this.showOlder();
          else answer(this.choice('compare', item.revision));
        }),
        this.quickPick.onDidTriggerItemButton(({ item, button }) => {
          const action = ACTIONS.find((key) => BUTTONS[key] === button);
          if (action && item.revision) answer(this.choice(action, item.revision));
        }),
        this.quickPick.onDidHide(() => resolve(undefined)),
      );
    });
    this.quickPick.show();
    void this.readDetails();
    return chosen;
  }

  dispose(): void {
    this.disposed = true;
    this.settle?.(undefined);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.quickPick.dispose();
  }

  private choice(action: HistoryChoice['action'], revision: RevisionSummary): HistoryChoice {
    const index = this.list.revisions.findIndex((r) => r.id === revision.id);
    return { action, revision, older: this.list.revisions[index + 1] };
  }

  private showOlder(): void {
    const first = this.shown;
    this.shown += PAGE_SIZE;
    this.render();
    const next = this.quickPick.items[first];
    if (next) this.quickPick.activeItems = [next];
    void this.readDetails();
  }

  /** Rebuilds the rows (after a page or a revision's details arrived), keeping the active row. */
  private render(): void {
    const active = this.quickPick.activeItems[0]?.revision?.id;
    const byId = new Map(this.list.revisions.map((revision) => [revision.id, revision]));
    const items: RevisionPickItem[] = revisionRows(this.list, this.shown, this.details, Date.now()).map((row) => ({
      label: row.label,
      description: row.description,
      detail: row.detail,
      buttons: row.actions.map((action) => BUTTONS[action]),
      revision: byId.get(row.id)!,
    }));
    const older = olderRowLabel(this.list, this.shown);
    if (older) items.push({ label: older, alwaysShow: true });
    this.quickPick.items = items;
    const keep = active === undefined ? undefined : items.find((item) => item.revision?.id === active);
    if (keep) this.quickPick.activeItems = [keep];
  }

  /** Reads, one at a time, the shown revisions whose tags or description changed, re-rendering after each. */
  private async readDetails(): Promise<void> {
    for (const revision of this.list.revisions.slice(0, this.shown)) {
      if (this.disposed) return;
      if (!needsDetails(revision) || this.asked.has(revision.id)) continue;
      this.asked.add(revision.id);
      try {
        const { tags, description } = await this.read(revision.id);
        this.details.set(revision.id, { tags, description });
      } catch {
        // The row keeps saying only that its tags or description changed.
        continue;
      }
      if (!this.disposed) this.render();
    }
  }
}
