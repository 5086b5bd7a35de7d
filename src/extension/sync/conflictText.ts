/**
 * What the Conflicts view shows of a conflict, apart from VS Code (test/extension runs it in plain
 * node): which side is this machine's, each version as a document that holds every field (so the
 * diff shows a rename, tags or a description as well as the code), and the fields to ask about
 * before one version is kept.
 */
import type { ConflictField, ConflictSides, ConflictVersion, SyncConflict } from '../../client/sync.ts';

const FIELD_LABELS: Record<ConflictField, string> = {
  name: 'Name',
  language: 'Language',
  tags: 'Tags',
  websites: 'Websites',
  description: 'Description',
  code: 'Code',
  prefixes: 'Prefixes',
  syntax: 'Snippet syntax',
  favorited: 'Favorite',
};

export function fieldLabel(field: ConflictField): string {
  return FIELD_LABELS[field];
}

/** The item's description and tooltip: what the copy is on this machine. */
export function conflictLabels(conflict: SyncConflict): { description: string; tooltip: string } {
  if (conflict.yours === 'copy') {
    return {
      description: 'your version',
      tooltip: 'Changed here and on another machine at once: the other machine\'s version was kept, this copy is yours. Select to compare.',
    };
  }
  return {
    description: 'another machine\'s version',
    tooltip: 'Changed on two machines at once: the version this machine has was kept, and this copy holds the other machine\'s. Select to compare.',
  };
}

/** The diff's title: their version on the left, yours on the right, and what differs. */
export function compareTitle(sides: ConflictSides): string {
  const differs = sides.differs.map((field) => fieldLabel(field).toLowerCase()).join(', ');
  return `${sides.mine.name}: theirs ↔ yours${differs !== '' ? ` (${differs} differ)` : ''}`;
}

/** One version as a document: every field, then the code as stored. */
export function conflictDocument(version: ConflictVersion | undefined): string {
  if (version === undefined) return '(deleted on this machine)\n';
  const list = (items: readonly string[]): string => (items.length === 0 ? '(none)' : items.join(', '));
  const lines = [
    `${FIELD_LABELS.name}: ${version.name}`,
    `${FIELD_LABELS.language}: ${version.language}`,
    `${FIELD_LABELS.tags}: ${list(version.tags)}`,
    `${FIELD_LABELS.websites}: ${list(version.websites.map((site) => (site.name === site.url ? site.url : `${site.name} <${site.url}>`)))}`,
    `${FIELD_LABELS.prefixes}: ${list(version.prefixes)}`,
    `${FIELD_LABELS.syntax}: ${version.syntax ? 'yes' : 'no'}`,
    `${FIELD_LABELS.favorited}: ${version.favorited ? 'yes' : 'no'}`,
    `${FIELD_LABELS.description}:`,
    ...(version.description === '' ? ['(none)'] : version.description.split(/\r?\n/).map((line) => `  ${line}`)),
    '',
    `──── ${FIELD_LABELS.code} ────`,
  ];
  return `${lines.join('\n')}\n${version.binary ? '(binary content)\n' : version.code}`;
}

/** The fields to ask about before keeping a version: those that differ, when more than one does. */
export function fieldsToAsk(sides: ConflictSides): readonly ConflictField[] {
  return sides.theirs !== undefined && sides.differs.length > 1 ? sides.differs : [];
}

/** The `fields` a resolve sends for the fields picked: undefined when every differing one was (all of the version kept). */
export function pickedFields(differs: readonly ConflictField[], picked: readonly ConflictField[]): readonly ConflictField[] | undefined {
  return differs.every((field) => picked.includes(field)) ? undefined : differs.filter((field) => picked.includes(field));
}
