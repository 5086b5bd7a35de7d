/**
 * What every import format is read into: plain snippets with the labels the format had, plus the
 * items that could not be read and why. Parsing stores nothing; the importer writes the snippets.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { InvalidInputError, TooLargeError } from '../errors.ts';
import { LIMITS, overLimit } from '../limits.ts';
import { boundedPrefixes } from '../snippets/snippetFacts.ts';
import type { ImportFormat } from './formats.ts';
import type { ExactRecord } from '../assets/exactRecords.ts';
import { wellFormed } from '../assets/content.ts';
import type { VaultConversation } from '../sync/vaultConversations.ts';

export type { ImportFormat } from './formats.ts';

export interface ImportedSnippet {
  readonly name: string;
  readonly text: string;
  /** Known from the file name, a scope or the format's own field; classified on import otherwise. */
  readonly language?: ClassificationSpecific | undefined;
  readonly tags: readonly string[];
  readonly description?: string | undefined;
  /** The text is VS Code snippet syntax (a snippet file's body with tab stops, placeholders or variables). */
  readonly syntax?: boolean | undefined;
  /** What inserts it in an editor (a VS Code snippet's prefixes); each is among `tags` too. */
  readonly prefixes?: readonly string[] | undefined;
  /** Where the snippet came from (file and item), for the summary. */
  readonly source: string;
  /**
   * A record of a Satchel vault: the asset keeps its id, times, websites and favorite; one with the
   * same id already saved is set to it (never skipped as a duplicate of another's text).
   */
  readonly record?: ExactRecord | undefined;
}

/** One item of a file that was not imported, and why. */
export interface ItemFailure {
  readonly source: string;
  readonly reason: string;
}

export interface ParsedFile {
  readonly format: ImportFormat;
  readonly snippets: ImportedSnippet[];
  readonly failures: ItemFailure[];
  /** A Satchel vault's conversations (written after the snippets they link to), ids and times kept. */
  readonly conversations?: readonly VaultConversation[] | undefined;
}

/** A file is larger than an import reads (the whole file is refused, nothing of it imported). */
export class ImportTooLargeError extends TooLargeError {}

/** A file is not one of the import formats, or not valid JSON. */
export class ImportFormatError extends InvalidInputError {
  readonly file: string;
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.file = file;
  }
}

/** Largest file an import reads, in characters (a 100k-snippet library is ~40 MB of JSON). */
export const MAX_IMPORT_FILE_BYTES = LIMITS.importFileChars;

export { isRecord } from '../plainObjects.ts';

export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** Collects one file's snippets, checking each against the bounds every format shares. */
export class SnippetCollector {
  readonly snippets: ImportedSnippet[] = [];
  readonly failures: ItemFailure[] = [];
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  fail(item: string, reason: string): void {
    this.failures.push({ source: `${this.file} › ${item}`, reason });
  }

  /**
   * Keeps the snippet, or fails it alone with the reason when it is over a limit of core/limits.ts
   * (its content, its number of tags, its description). A name or a tag longer than its limit is
   * cut instead: it labels the snippet, and a cut label loses nothing of the snippet itself.
   */
  add(item: string, snippet: Omit<ImportedSnippet, 'source'>): void {
    const source = `${this.file} › ${item}`;
    // A vault's record is a snippet as a library held it, and an edit may empty a snippet: kept, as sync keeps it.
    if (snippet.text.trim() === '' && snippet.record === undefined) return this.fail(item, 'the snippet is empty');
    const tags = distinctTags(snippet.tags);
    // A vault's record is kept as written; other formats' descriptions are trimmed.
    const description = snippet.record !== undefined ? snippet.description || undefined : snippet.description?.trim();
    const refused =
      overLimit('contentChars', snippet.text.length) ??
      overLimit('contentBytes', snippet.record?.bytes?.length ?? 0) ??
      overLimit('tagsPerAsset', tags.length) ??
      overLimit('annotationChars', description?.length ?? 0) ??
      overLimit('websitesPerAsset', snippet.record?.websites.length ?? 0) ??
      attachmentRefusal(snippet.record);
    if (refused !== undefined) return this.fail(item, refused);
    const prefixes = boundedPrefixes(snippet.prefixes ?? []);
    this.snippets.push({
      name: (snippet.record !== undefined && snippet.name.trim() !== '' ? snippet.name : snippet.name.trim()).slice(0, LIMITS.nameChars),
      text: wellFormed(snippet.text),
      language: snippet.language,
      tags,
      ...(description ? { description } : {}),
      ...(snippet.syntax ? { syntax: true } : {}),
      ...(prefixes.length > 0 ? { prefixes } : {}),
      source,
      ...(snippet.record !== undefined ? { record: snippet.record } : {}),
    });
  }

  result(format: ImportFormat): ParsedFile {
    return { format, snippets: this.snippets, failures: this.failures };
  }
}

/** Why a record's annotations or anchors cannot be stored (the limits every door holds them to), or undefined. */
function attachmentRefusal(record: ExactRecord | undefined): string | undefined {
  for (const annotation of record?.annotations ?? []) {
    const over = overLimit('annotationChars', annotation.text.length);
    if (over !== undefined) return over;
  }
  for (const anchor of record?.anchors ?? []) {
    const over = overLimit('nameChars', anchor.name?.length ?? 0);
    if (over !== undefined) return over;
  }
  return undefined;
}

/** Tags as the store keeps them: trimmed, cut to the tag limit, one per text ignoring case (the first spelling). */
function distinctTags(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const text of texts) {
    const tag = text.trim().slice(0, LIMITS.tagChars);
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}
