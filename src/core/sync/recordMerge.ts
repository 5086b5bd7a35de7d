/**
 * The three-way merge of one record (docs/sync.md): this machine's version and the remote's, each
 * against the state both last agreed on.
 *
 * - A field one side changed takes that side's value; tags, prefixes and websites are sets (what
 *   either side added is kept, what either side removed goes); a tag's spelling and a website's
 *   name merge like fields (labelSpelling.ts).
 * - Text changed on both sides is merged line by line (git merge-file); lines both changed
 *   differently are a true conflict, as are a name or language both changed differently.
 * - A true conflict keeps the remote version and saves this machine's as a conflict copy: a new
 *   record linked to the original (`conflict-of`) and naming this machine (`conflict-from`, so the
 *   machine whose version won can tell the copy is not its own), never conflict markers in a snippet. The copy's
 *   id is made from the original's id and the local version, so a sync run again after a crash
 *   makes the same copy, not a second one.
 * - An edit beats a delete: a record deleted on one side and changed on the other is kept, changed,
 *   and the result says so.
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '../limits.ts';
import { sortedTexts, sortedWebsites, type VaultAsset, type VaultWebsite } from './vaultFormat.ts';
import { namedWebsites, spelledTags } from './labelSpelling.ts';

export type MergeNotice =
  /** The record was deleted on this machine and changed on the other: the change was kept. */
  | 'remote-edit-kept'
  /** The record was deleted on the other machine and changed here: this change was kept. */
  | 'local-edit-kept'
  /** Both changed the same lines (or the name or language): the remote version won, this one is a copy. */
  | 'conflict';

export interface RecordMerge<R = VaultAsset> {
  readonly merged: R | undefined;
  /** This machine's version, saved beside the merged one after a true conflict. */
  readonly copy?: R | undefined;
  readonly notice?: MergeNotice | undefined;
  /** This machine's name, when both sides renamed the record differently and the remote's was kept (a conversation's). */
  readonly localName?: string | undefined;
}

/** What a conflict copy's name ends with. */
export const COPY_SUFFIX = ' (conflict copy)';

/** Merges two texts against their base line by line; undefined when some lines conflict. */
export type TextMerge = (base: string, ours: string, theirs: string) => Promise<string | undefined>;

/** The id of the conflict copy of `id`'s local version `oursOid`: the same every time this conflict is met. */
export function conflictCopyId(id: string, oursOid: string): string {
  const hex = createHash('sha1').update(`${id}\0${oursOid}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function sameContent(a: VaultAsset['content'], b: VaultAsset['content']): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

/** A field's merged value: the side that changed it, or `conflict` when both changed it differently. */
export function pick<T>(base: T, ours: T, theirs: T, same: (x: T, y: T) => boolean = (x, y) => x === y): { value: T; conflict: boolean } {
  if (same(ours, base) || same(ours, theirs)) return { value: theirs, conflict: false };
  if (same(theirs, base)) return { value: ours, conflict: false };
  return { value: theirs, conflict: true };
}

/** Sets merged by key: kept when both sides have it or one side added it; gone when either side removed it. */
export function mergeSet<T>(base: readonly T[], ours: readonly T[], theirs: readonly T[], key: (item: T) => string): T[] {
  const b = new Set(base.map(key));
  const o = new Map(ours.map((item) => [key(item), item]));
  const t = new Map(theirs.map((item) => [key(item), item]));
  const out = new Map<string, T>();
  for (const [k, item] of t) if (o.has(k) || !b.has(k)) out.set(k, item);
  for (const [k, item] of o) if (!out.has(k) && (t.has(k) || !b.has(k))) out.set(k, item);
  return [...out.values()];
}

const lower = (text: string): string => text.toLowerCase();

/**
 * Merges a record both sides changed since `base` (undefined: created on both sides, or absent
 * from a side's view); `oursOid` names the local version (for its conflict copy's id).
 */
export async function mergeRecord(
  base: VaultAsset | undefined,
  ours: VaultAsset | undefined,
  theirs: VaultAsset | undefined,
  oursOid: string | undefined,
  mergeText: TextMerge,
  machine?: string,
): Promise<RecordMerge> {
  if (ours === undefined) return { merged: theirs, ...(theirs !== undefined && base !== undefined ? { notice: 'remote-edit-kept' as const } : {}) };
  if (theirs === undefined) return { merged: ours, ...(base !== undefined ? { notice: 'local-edit-kept' as const } : {}) };
  if (base === undefined) return conflict(ours, theirs, theirs, oursOid, machine);

  const name = pick(base.name, ours.name, theirs.name);
  const language = pick(base.language, ours.language, theirs.language);
  const description = pick(base.description, ours.description, theirs.description);
  let content = pick(base.content, ours.content, theirs.content, sameContent);
  if (content.conflict && typeof base.content === 'string' && typeof ours.content === 'string' && typeof theirs.content === 'string') {
    const text = await mergeText(base.content, ours.content, theirs.content);
    if (text !== undefined) content = { value: text, conflict: false };
  }
  const newer = Date.parse(ours.updated) > Date.parse(theirs.updated) ? ours.updated : theirs.updated;
  // What a memory was written against is set once; should both sides differ, the remote's stands (no copy for it).
  const memory = pick(base.memory, ours.memory, theirs.memory, (x, y) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null)).value;
  const merged: VaultAsset = {
    id: theirs.id,
    name: name.value,
    language: language.value,
    tags: sortedTexts(spelledTags(mergeSet(base.tags, ours.tags, theirs.tags, lower), base.tags, ours.tags, theirs.tags)),
    websites: sortedWebsites(namedWebsites(mergeSet<VaultWebsite>(base.websites, ours.websites, theirs.websites, (site) => site.url), base.websites, ours.websites, theirs.websites)),
    ...(description.value !== undefined ? { description: description.value } : {}),
    created: pick(base.created, ours.created, theirs.created).value,
    updated: newer,
    favorited: pick(base.favorited, ours.favorited, theirs.favorited).value,
    syntax: pick(base.syntax, ours.syntax, theirs.syntax).value,
    prefixes: sortedTexts(mergeSet(base.prefixes, ours.prefixes, theirs.prefixes, lower)),
    ...(theirs.conflictOf !== undefined ? { conflictOf: theirs.conflictOf, conflictFrom: theirs.conflictFrom } : {}),
    content: content.value,
    ...(memory !== undefined ? { memory } : {}),
  };
  if (name.conflict || language.conflict || description.conflict || content.conflict) return conflict(ours, theirs, merged, oursOid, machine);
  return { merged };
}

/** `machine`: this machine's id (conflictCopies.ts), written in the copy so every machine tells whose version it holds. */
function conflict(ours: VaultAsset, theirs: VaultAsset, merged: VaultAsset, oursOid: string | undefined, machine: string | undefined): RecordMerge {
  const copy: VaultAsset = {
    ...ours,
    id: conflictCopyId(theirs.id, oursOid ?? ''),
    name: `${ours.name.slice(0, LIMITS.nameChars - COPY_SUFFIX.length)}${COPY_SUFFIX}`,
    conflictOf: theirs.id,
    conflictFrom: machine,
  };
  return { merged, copy, notice: 'conflict' };
}
