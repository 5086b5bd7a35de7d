/**
 * The rows of the Show History picker, apart from VS Code: one per revision (who, when, what it
 * changed) in pages, newest first, and the row that loads the next page. Pure, so it is tested on
 * its own; historyPicker.ts turns them into quick-pick items.
 */
import type { RevisionList } from '../../client/history.ts';
import { authorIcon, authorKindLabel, describeChanges, relativeAge, type RevisionDetails } from './revisionFormat.ts';
import { formatSize } from '../../core/byteSizes.ts';

/** Revisions shown at first, and added by each "older revisions" row. */
export const PAGE_SIZE = 50;

/** What a row's buttons do: restore the revision, or show what it changed from the one before. */
export type RevisionAction = 'restore' | 'changes';

export interface RevisionRow {
  /** The revision's id. */
  readonly id: string;
  /** Who and when: "$(robot) Claude Desktop · 3 days ago". */
  readonly label: string;
  /** The snippet's name then and its size: "Fetch with retry · 1.2 KB", "current · …" for the current one. */
  readonly description: string;
  /** The door it came through and what it changed: "MCP client · Content changed (…) · Tags: http". */
  readonly detail: string;
  readonly actions: readonly RevisionAction[];
}

/**
 * The first `shown` revisions of a list as rows. `details` holds the revisions read whole so far
 * (their tags and description); the others say only that those changed.
 */
export function revisionRows(list: RevisionList, shown: number, details: ReadonlyMap<string, RevisionDetails>, now: number): RevisionRow[] {
  const created = new Map(list.revisions.map((revision) => [revision.id, revision.created]));
  return list.revisions.slice(0, shown).map((revision, index) => {
    const older = list.revisions[index + 1];
    const current = !list.deleted && revision.id === list.current;
    const restored = revision.restoredFrom === undefined ? undefined : created.get(revision.restoredFrom);
    const changes = describeChanges(revision, older, details.get(revision.id), now, restored === undefined ? undefined : relativeAge(restored, now));
    const actions: RevisionAction[] = [];
    if (older !== undefined) actions.push('changes');
    if (!current && !list.deleted) actions.push('restore');
    return {
      id: revision.id,
      label: `${authorIcon(revision.author)} ${revision.author.name} · ${relativeAge(revision.created, now)}`,
      description: `${current ? 'current · ' : ''}${revision.name || 'Untitled'} · ${formatSize(revision.size)}`,
      detail: [authorKindLabel(revision.author), ...changes].join(' · '),
      actions,
    };
  });
}

/** The label of the row that shows the next page, or undefined when every revision is shown. */
export function olderRowLabel(list: RevisionList, shown: number): string | undefined {
  const left = list.revisions.length - shown;
  if (left <= 0) return undefined;
  const next = Math.min(left, PAGE_SIZE);
  return `$(history) Show ${next === left ? '' : `${next} of `}${left} older revision${left === 1 ? '' : 's'}…`;
}

/** The picker's title and prompt. */
export function pickerTitle(list: RevisionList): { title: string; placeholder: string } {
  const name = list.revisions[0]?.name || 'Untitled';
  const count = list.revisions.length;
  const revisions = `${count} revision${count === 1 ? '' : 's'}`;
  return {
    title: `History of “${name}”${list.deleted ? ' (deleted)' : ''}`,
    placeholder: list.deleted
      ? `${revisions}, newest first; the snippet was deleted (the trash restores it)`
      : `${revisions}, newest first: pick one to compare with the current text`,
  };
}
