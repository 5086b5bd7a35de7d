/**
 * The library's assets as vault records (vaultFormat.ts): read from the store, and written back
 * exactly (id, times, websites and favorite included) through the bulk path, each a revision by its
 * author. Only ordinary assets are records: suggestions and pseudo assets stay on their machine.
 */
import type { Database } from '../store/database.ts';
import type { AssetStore } from '../assets/assetStore.ts';
import type { Labels } from '../assets/labels.ts';
import type { Descriptions } from '../assets/descriptions.ts';
import type { BulkAsset } from '../assets/bulkWriter.ts';
import type { ExactRecord } from '../assets/exactRecords.ts';
import type { ImportedSnippet } from '../import/types.ts';
import { SnippetFactsStore } from '../snippets/snippetFacts.ts';
import { MemoryFactsStore } from '../memories/memoryFacts.ts';
import { trackedOf } from '../assets/assetRevisions.ts';
import { isKnownSpecific } from '../assets/specifics.ts';
import { specificFromFileName } from '../classify/languages.ts';
import { checkSeededTags, checkSeededWebsites, overLimit } from '../limits.ts';
import { checkEdit } from '../assets/assetEdits.ts';
import { InvalidInputError, TooLargeError } from '../errors.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { sortedTexts, sortedWebsites, type VaultAsset, type VaultWebsite } from './vaultFormat.ts';
import { preferredSiteName, preferredTag } from './labelSpelling.ts';


/** What reading records needs of a store (the store's own assets area, or a second connection's parts). */
export interface RecordSources {
  readonly database: Database;
  readonly store: AssetStore;
  readonly labels: Labels;
  readonly descriptions: Descriptions;
}

export class LibraryRecords {
  private readonly sources: RecordSources;
  private readonly facts: SnippetFactsStore;
  private readonly memories: MemoryFactsStore;

  constructor(sources: RecordSources) {
    this.sources = sources;
    this.facts = new SnippetFactsStore(sources.database);
    this.memories = new MemoryFactsStore(sources.database);
  }

  /** The asset as a record; undefined when there is no such ordinary asset. */
  read(id: string): VaultAsset | undefined {
    const { store, labels, descriptions } = this.sources;
    const doc = store.ordinaryDoc(id);
    if (doc === undefined) return undefined;
    const tracked = trackedOf(doc);
    const bytes = tracked.content.bytes;
    const facts = this.facts.get(id);
    const description = descriptions.of(id);
    const conflict = this.conflict(id);
    const memory = this.memories.get(id);
    return {
      id,
      name: tracked.name,
      language: tracked.language,
      tags: sortedTexts(labels.tagTexts(id)),
      websites: sortedWebsites(labels.websitesOfAsset(id).map((site) => ({ url: site.url, name: site.name ?? site.url }))),
      ...(description !== undefined ? { description } : {}),
      created: doc.created.value,
      updated: doc.updated.value,
      favorited: doc.favorited === true,
      syntax: facts.syntax,
      prefixes: sortedTexts(facts.prefixes),
      ...(conflict !== undefined ? { conflictOf: conflict.original, ...(conflict.machine !== undefined ? { conflictFrom: conflict.machine } : {}) } : {}),
      content: bytes !== undefined && tracked.content.text === '' ? Uint8Array.from(bytes) : tracked.content.text,
      ...(memory !== undefined ? { memory } : {}),
    };
  }

  /** The asset this one is a conflict copy of. */
  conflictOf(id: string): string | undefined {
    return this.conflict(id)?.original;
  }

  /** What makes `id` a conflict copy: the asset whose other version won, and the machine that wrote this one (when known). */
  conflict(id: string): ConflictLink | undefined {
    const row = this.sources.database.prepare('SELECT copy, original, machine FROM sync_conflicts WHERE copy = ?').get(id) as ConflictRow | undefined;
    return row === undefined ? undefined : linkOf(row);
  }

  /** Records that a copy is a conflict copy of `original`, written by `machine` (or, original undefined, that it is none); in the caller's transaction. */
  setConflictOf(copy: string, original: string | undefined, machine?: string): void {
    const db = this.sources.database;
    if (original === undefined) db.prepare('DELETE FROM sync_conflicts WHERE copy = ?').run(copy);
    else {
      const now = this.conflict(copy);
      if (now?.original === original && now.machine === machine) return;
      db.prepare('INSERT INTO sync_conflicts (copy, original, created, machine) VALUES (?, ?, ?, ?) ON CONFLICT (copy) DO UPDATE SET original = excluded.original, machine = excluded.machine').run(
        copy,
        original,
        new Date().toISOString(),
        machine ?? null,
      );
    }
  }

  /** Conflict copies, newest first. */
  conflicts(limit = 1000): ConflictLink[] {
    const rows = this.sources.database.prepare('SELECT copy, original, machine FROM sync_conflicts ORDER BY created DESC LIMIT ?').all(limit) as ConflictRow[];
    return rows.map(linkOf);
  }
}

/** A conflict copy's link to its original, and the machine whose version the copy holds (undefined: made before that was kept). */
export interface ConflictLink {
  readonly copy: string;
  readonly original: string;
  readonly machine?: string | undefined;
}

type ConflictRow = { copy: string; original: string; machine: string | null };

function linkOf(row: ConflictRow): ConflictLink {
  return { copy: row.copy, original: row.original, ...(row.machine !== null ? { machine: row.machine } : {}) };
}

/**
 * Before records are written here: each tag or website the store spells otherwise takes the
 * record's spelling when it is the preferred one (labelSpelling.ts); otherwise the store keeps its
 * own, the record reads with it, and the next sync carries it to the other machine.
 */
export function adoptLabels(labels: Labels, record: { readonly tags?: readonly string[]; readonly websites: readonly VaultWebsite[] }): void {
  for (const tag of record.tags ?? []) labels.respellTag(tag, (held) => preferredTag(held, tag) === tag);
  for (const site of record.websites) labels.renameWebsite(site.url, site.name, (held) => preferredSiteName(site.url, held, site.name) === site.name);
}

/**
 * Why a record cannot be stored, or undefined: the rules an edit is held to (checkEdit: an edit
 * may empty a snippet, a tag may not be blank), the create door's for tags and websites, and the
 * limits every door shares, so a record one machine saved is one every machine takes.
 */
export function recordRefusal(record: VaultAsset): string | undefined {
  const binary = typeof record.content !== 'string';
  try {
    checkEdit({ tags: record.tags });
    checkSeededTags(record.tags);
    checkSeededWebsites(record.websites);
  } catch (error) {
    if (error instanceof InvalidInputError || error instanceof TooLargeError) return error.message;
    throw error;
  }
  return (
    (binary ? overLimit('contentBytes', record.content.length) : overLimit('contentChars', record.content.length)) ??
    overLimit('nameChars', record.name.length) ??
    overLimit('annotationChars', record.description?.length ?? 0)
  );
}

/** A record's language as the store takes it: itself when known, else from its name as an extension, else plain text. */
export function recordLanguage(language: string): ClassificationSpecific {
  if (isKnownSpecific(language)) return language;
  return specificFromFileName(`file.${language}`) ?? ('txt' as ClassificationSpecific);
}

/** What a record fixes of its asset beyond what revisions keep (exactRecords.ts). */
export function exactRecordOf(record: VaultAsset): ExactRecord {
  return {
    id: record.id,
    created: record.created,
    updated: record.updated,
    websites: record.websites,
    favorited: record.favorited,
    ...(typeof record.content !== 'string' ? { bytes: [...record.content] } : {}),
    ...(record.memory !== undefined ? { memory: record.memory } : {}),
  };
}

/** A record as the import pipeline takes it (an ImportedSnippet without its source). */
export function importedOf(record: VaultAsset): Omit<ImportedSnippet, 'source'> & { readonly language: ClassificationSpecific } {
  return {
    name: record.name,
    text: typeof record.content === 'string' ? record.content : '',
    language: recordLanguage(record.language),
    tags: record.tags,
    description: record.description,
    syntax: record.syntax,
    prefixes: record.prefixes,
    record: exactRecordOf(record),
  };
}

/** The bulk path's asset for a record: created with its id, or (when `exists`) set to exactly it. */
export function bulkAssetOf(record: VaultAsset, exists: boolean): BulkAsset {
  return { ...importedOf(record), replaces: exists ? { id: record.id, languageGiven: true } : undefined };
}
