/**
 * How a snippet's history reads in VS Code: ages, authors, sizes, what each revision changed, the
 * diff's title and the restore confirmation. Pure (no vscode), so it is tested on its own.
 */
import type { Author, AuthorKind } from '../../core/history/authors.ts';
import type { RevisionReply, RevisionSummary } from '../../client/history.ts';
import { languageName } from '../languageNames.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { formatSize } from '../../core/byteSizes.ts';

/** "just now", "5 minutes ago", "yesterday", "3 days ago", "2 weeks ago", "4 months ago", "2 years ago". */
export function relativeAge(iso: string, now: number): string {
  return timeAgo(iso, now, 'long') ?? 'at an unknown time';
}

/** The door a write came through, as a reader says it. */
const KIND_LABELS: Record<AuthorKind, string> = {
  vscode: 'VS Code',
  agent: 'Agent in VS Code',
  mcp: 'MCP client',
  connector: 'Copy connector',
  import: 'Import',
  sync: 'Sync',
  'pieces-app': 'Pieces client',
  cli: 'Command line',
  unknown: 'Unknown',
};

/** A codicon per door: agents stand out in a list of a snippet's changes. */
const KIND_ICONS: Record<AuthorKind, string> = {
  vscode: '$(vscode)',
  agent: '$(copilot)',
  mcp: '$(robot)',
  connector: '$(clippy)',
  import: '$(cloud-download)',
  sync: '$(sync)',
  'pieces-app': '$(plug)',
  cli: '$(terminal)',
  unknown: '$(question)',
};

export function authorKindLabel(author: Author): string {
  return KIND_LABELS[author.kind];
}

export function authorIcon(author: Author): string {
  return KIND_ICONS[author.kind];
}

/** "by Claude Desktop", "by an import of python.json", "by a sync with origin", "before history was kept". */
export function byAuthor(author: Author): string {
  switch (author.kind) {
    case 'import':
      return author.name === 'Import' ? 'by an import' : `by an import of ${author.name}`;
    case 'sync':
      return author.name === 'Sync' ? 'by a sync' : `by a sync with ${author.name}`;
    case 'unknown':
      return author.name === 'Unknown' ? 'by an unknown author' : lowerFirst(author.name);
    default:
      return `by ${author.name}`;
  }
}

/** What the picker knows of a revision's tags and description once it has read it whole. */
export type RevisionDetails = Pick<RevisionReply, 'tags' | 'description'>;

/**
 * What a revision changed from the one before it (`older`, the next in a newest-first list), in
 * words: names and languages from the summaries, tags and description once the revision was read
 * whole (`details`), else just that they changed.
 */
export function describeChanges(revision: RevisionSummary, older: RevisionSummary | undefined, details: RevisionDetails | undefined, now: number, restoredAge?: string): string[] {
  const parts: string[] = [];
  const changes = new Set(revision.changes);
  if (revision.restoredFrom !== undefined) parts.push(restoredAge ? `Restored the revision of ${restoredAge}` : 'Restored an earlier revision');
  if (changes.has('created')) parts.push('Created');
  if (changes.has('content')) parts.push(older ? `Content changed (${formatSize(older.size)} → ${formatSize(revision.size)})` : 'Content changed');
  if (changes.has('name')) parts.push(older ? `Renamed from “${older.name}”` : 'Renamed');
  if (changes.has('language')) parts.push(older ? `Language ${languageName(older.language)} → ${languageName(revision.language)}` : `Language ${languageName(revision.language)}`);
  if (changes.has('tags')) parts.push(details ? (details.tags.length ? `Tags: ${details.tags.join(', ')}` : 'Tags removed') : 'Tags changed');
  if (changes.has('description')) {
    parts.push(details ? (details.description ? `Description: “${clip(details.description, 60)}”` : 'Description removed') : 'Description changed');
  }
  if (parts.length === 0) parts.push(`Saved ${relativeAge(revision.created, now)}`);
  return parts;
}

/** Whether a revision's description of its changes needs the revision read whole (its tags or description changed). */
export function needsDetails(revision: RevisionSummary): boolean {
  return revision.changes.includes('tags') || revision.changes.includes('description');
}

/** The diff's title: "Fetch with retry (3 days ago, by Claude Desktop) ↔ current". */
export function compareTitle(revision: RevisionSummary, now: number): string {
  return `${revision.name || 'Untitled'} (${relativeAge(revision.created, now)}, ${byAuthor(revision.author)}) ↔ current`;
}

/** The title of a diff showing what one revision changed: "Fetch with retry: changes by Claude Desktop (3 days ago)". */
export function changesTitle(revision: RevisionSummary, now: number): string {
  return `${revision.name || 'Untitled'}: changes ${byAuthor(revision.author)} (${relativeAge(revision.created, now)})`;
}

/** The restore confirmation: its question and, below it, what the restore changes of the current state. */
export function restoreConfirmation(revision: RevisionReply, current: RevisionReply, now: number): { message: string; detail: string } {
  const message = `Restore “${revision.name || 'Untitled'}” as it was ${relativeAge(revision.created, now)} (${byAuthor(revision.author)})?`;
  const lines = stateDifferences(current, revision);
  const detail = [
    ...(lines.length ? lines : ['The restored revision holds the same as the current one.']),
    '',
    'The current state stays in the history, so this restore can be undone from Show History.',
  ].join('\n');
  return { message, detail };
}

/** What going from `from` to `to` changes, one line per field. */
export function stateDifferences(from: RevisionReply, to: RevisionReply): string[] {
  const lines: string[] = [];
  if (!sameContent(from, to)) lines.push(`Content: ${formatSize(from.size)} → ${formatSize(to.size)}`);
  if (from.name !== to.name) lines.push(`Name: “${from.name}” → “${to.name}”`);
  if (from.language !== to.language) lines.push(`Language: ${languageName(from.language)} → ${languageName(to.language)}`);
  if (from.tags.join('\n') !== to.tags.join('\n')) lines.push(`Tags: ${listOrNone(from.tags)} → ${listOrNone(to.tags)}`);
  if ((from.description ?? '') !== (to.description ?? '')) {
    lines.push(to.description ? `Description: “${clip(to.description, 80)}”` : 'Description: removed');
  }
  return lines;
}

export function sameContent(a: RevisionReply, b: RevisionReply): boolean {
  if ('text' in a.content && 'text' in b.content) return a.content.text === b.content.text;
  if ('base64' in a.content && 'base64' in b.content) return a.content.base64 === b.content.base64;
  return false;
}

/** A revision's content as a document shows it (binary content is described, not shown). */
export function documentText(revision: RevisionReply): string {
  if ('text' in revision.content) return revision.content.text;
  return `(Binary content, ${formatSize(revision.size)}: not shown as text.)`;
}

function listOrNone(tags: readonly string[]): string {
  return tags.length ? tags.join(', ') : 'none';
}

function clip(text: string, chars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
