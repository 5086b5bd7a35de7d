/**
 * Conflict copies as each machine sees them (docs/sync.md, "Sync Conflicts"). A copy holds the
 * version of the machine whose edit lost, and reaches every machine; it names that machine
 * (`conflict-from`, this module's `machineId`), so each machine tells which side is its own: on
 * the machine that wrote it the copy is "yours" and the original "theirs", on every other machine
 * (the one whose version won among them) the original is "yours". Settling one applies every field
 * of the version kept (name, language, tags, websites, description, code, snippet facts, favorite)
 * as a write by the user, so the history keeps the version it replaces, and the copy goes to the
 * trash.
 */
import { randomUUID } from 'node:crypto';
import type { StoreContext } from '../context.ts';
import type { AssetService } from '../assets/assetService.ts';
import { BulkWriter } from '../assets/bulkWriter.ts';
import { NotFoundError } from '../errors.ts';
import type { WriteOptions } from '../history/authors.ts';
import { bulkAssetOf, type ConflictLink, type LibraryRecords } from './libraryRecords.ts';
import { COPY_SUFFIX } from './recordMerge.ts';
import type { VaultAsset, VaultWebsite } from './vaultFormat.ts';

export const CONFLICT_CHOICES = ['mine', 'theirs', 'both'] as const;
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number];

/** Which of the two snippets holds this machine's version. */
export type ConflictSide = 'copy' | 'original';

export interface SyncConflict {
  /** The conflict copy: the version of the machine whose edit lost. */
  readonly copy: string;
  /** The snippet whose other version won. */
  readonly original: string;
  readonly name: string;
  /** The copy's language (a ClassificationSpecific). */
  readonly language: string;
  /** Which one holds this machine's version: the copy on the machine that wrote it, the original on the others. */
  readonly yours: ConflictSide;
}

/** The fields a conflict's two versions are compared and settled by. */
export const CONFLICT_FIELDS = ['name', 'language', 'tags', 'websites', 'description', 'code', 'prefixes', 'syntax', 'favorited'] as const;
export type ConflictField = (typeof CONFLICT_FIELDS)[number];

/** One side's version, as the compare view shows it. */
export interface ConflictVersion {
  /** The snippet that holds it. */
  readonly id: string;
  /** Without the copy's " (conflict copy)". */
  readonly name: string;
  readonly language: string;
  readonly tags: readonly string[];
  readonly websites: readonly VaultWebsite[];
  readonly description: string;
  /** The code ('' for binary content: `binary` says so). */
  readonly code: string;
  readonly binary: boolean;
  readonly prefixes: readonly string[];
  readonly syntax: boolean;
  readonly favorited: boolean;
}

/** A conflict's two versions as this machine names them, and the fields in which they differ. */
export interface ConflictSides extends SyncConflict {
  readonly mine: ConflictVersion;
  /** Absent when the other snippet is no longer here (deleted since). */
  readonly theirs?: ConflictVersion | undefined;
  readonly differs: readonly ConflictField[];
}

const MACHINE_KEY = 'machine';

/** This store's machine id: made once, kept across remotes (a new remote does not make old copies another machine's). */
export function machineId(context: StoreContext): string {
  const db = context.database;
  const read = (): string | undefined => (db.prepare('SELECT value FROM sync_state WHERE key = ?').get(MACHINE_KEY) as { value: string } | undefined)?.value;
  const known = read();
  if (known !== undefined) return known;
  db.prepare('INSERT OR IGNORE INTO sync_state (key, value) VALUES (?, ?)').run(MACHINE_KEY, randomUUID());
  return read()!;
}

/** The name a copy's version has as a snippet (without the copy's suffix). */
function plainName(name: string): string {
  return name.endsWith(COPY_SUFFIX) ? name.slice(0, -COPY_SUFFIX.length) : name;
}

export function versionOf(record: VaultAsset): ConflictVersion {
  const binary = typeof record.content !== 'string';
  return {
    id: record.id,
    name: plainName(record.name),
    language: record.language,
    tags: record.tags,
    websites: record.websites,
    description: record.description ?? '',
    code: typeof record.content === 'string' ? record.content : '',
    binary,
    prefixes: record.prefixes,
    syntax: record.syntax,
    favorited: record.favorited,
  };
}

/** The fields in which two versions differ (code compared byte for byte, binary content included). */
export function differingFields(a: VaultAsset, b: VaultAsset): ConflictField[] {
  const x = versionOf(a);
  const y = versionOf(b);
  const same = (field: ConflictField): boolean => {
    if (field === 'code') return typeof a.content === 'string' || typeof b.content === 'string' ? a.content === b.content : Buffer.from(a.content).equals(Buffer.from(b.content));
    return JSON.stringify(x[field]) === JSON.stringify(y[field]);
  };
  return CONFLICT_FIELDS.filter((field) => !same(field));
}

export class ConflictCopies {
  private readonly context: StoreContext;
  private readonly assets: AssetService;
  private readonly records: LibraryRecords;

  constructor(context: StoreContext, assets: AssetService, records: LibraryRecords) {
    this.context = context;
    this.assets = assets;
    this.records = records;
  }

  /** Which snippet holds this machine's version: a copy another machine wrote is theirs (one made before machines were named is taken as this one's). */
  private yours(link: ConflictLink): ConflictSide {
    return link.machine === undefined || link.machine === machineId(this.context) ? 'copy' : 'original';
  }

  /** Conflict copies, newest first. */
  list(): SyncConflict[] {
    return this.records.conflicts().flatMap((link) => {
      const record = this.records.read(link.copy);
      return record === undefined ? [] : [{ copy: link.copy, original: link.original, name: record.name, language: record.language, yours: this.yours(link) }];
    });
  }

  /** The conflict's two versions, as this machine names them. */
  sides(copy: string): ConflictSides {
    const { link, copyRecord, original } = this.read(copy);
    const yours = this.yours(link);
    const [mine, theirs] = yours === 'copy' ? [copyRecord, original] : [original, copyRecord];
    const conflict = { copy, original: link.original, name: copyRecord.name, language: copyRecord.language, yours };
    if (mine === undefined) return { ...conflict, mine: versionOf(copyRecord), differs: [...CONFLICT_FIELDS] };
    return { ...conflict, mine: versionOf(mine), ...(theirs !== undefined ? { theirs: versionOf(theirs) } : {}), differs: theirs === undefined ? [...CONFLICT_FIELDS] : differingFields(mine, theirs) };
  }

  /**
   * Settles a conflict as this machine names its sides: `mine` keeps this machine's version,
   * `theirs` the other machine's, `both` keeps both (the copy no longer listed). `fields`, when
   * given, are the fields taken from the version kept; the others keep the other version's value
   * (undefined: every field from the version kept). The result becomes the original's in every
   * field, a write by `by` (its history keeps what it replaces); the copy goes to the trash. The
   * next sync sends it all.
   */
  resolve(copy: string, keep: ConflictChoice, by: WriteOptions, fields?: readonly ConflictField[]): void {
    const { link, copyRecord, original } = this.read(copy);
    this.context.transaction(() => {
      if (keep === 'both') {
        this.records.setConflictOf(copy, undefined);
        return;
      }
      const copyIsMine = this.yours(link) === 'copy';
      const [kept, other] = (keep === 'mine') === copyIsMine ? [copyRecord, original] : [original, copyRecord];
      const result = settled(kept ?? copyRecord, kept === undefined ? undefined : other, fields, link.original, original);
      if (original === undefined || differingFields(result, original).length > 0) {
        new BulkWriter(this.context, this.assets.bulkTargets()).write([bulkAssetOf(result, this.assets.exists(link.original))], by.author);
      }
      this.assets.writes.delete(copy, by);
      this.records.setConflictOf(copy, undefined);
    });
  }

  private read(copy: string): { link: ConflictLink; copyRecord: VaultAsset; original: VaultAsset | undefined } {
    const link = this.records.conflict(copy);
    const copyRecord = this.records.read(copy);
    if (link === undefined || copyRecord === undefined) throw new NotFoundError('conflict copy', copy);
    return { link, copyRecord, original: this.records.read(link.original) };
  }
}

/** The original's new record: each field from `kept` when `fields` names it (or names none), else from `other`. */
function settled(kept: VaultAsset, other: VaultAsset | undefined, fields: readonly ConflictField[] | undefined, id: string, original: VaultAsset | undefined): VaultAsset {
  const from = (field: ConflictField): VaultAsset => (other === undefined || fields === undefined || fields.includes(field) ? kept : other);
  const description = from('description').description;
  return {
    id,
    name: plainName(from('name').name),
    language: from('language').language,
    tags: from('tags').tags,
    websites: from('websites').websites,
    ...(description !== undefined ? { description } : {}),
    created: original?.created ?? kept.created,
    updated: new Date().toISOString(),
    favorited: from('favorited').favorited,
    syntax: from('syntax').syntax,
    prefixes: from('prefixes').prefixes,
    content: from('code').content,
    ...(from('code').memory !== undefined ? { memory: from('code').memory } : {}),
  };
}
