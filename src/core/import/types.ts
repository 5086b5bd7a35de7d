/**
 * What every import format is read into: plain snippets with the labels the format had, plus the
 * items that could not be read and why. Parsing stores nothing; the importer writes the snippets.
 */
import type { ClassificationSpecific } from '../wire.ts';
import { InvalidInputError, TooLargeError } from '../errors.ts';
import type { ImportFormat } from './formats.ts';

export type { ImportFormat } from './formats.ts';

export interface ImportedSnippet {
  readonly name: string;
  readonly text: string;
  /** Known from the file name, a scope or the format's own field; classified on import otherwise. */
  readonly language?: ClassificationSpecific | undefined;
  readonly tags: readonly string[];
  readonly description?: string | undefined;
  /** Where the snippet came from (file and item), for the summary. */
  readonly source: string;
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

/** Largest file an import reads (a 100k-snippet library is ~40 MB of JSON). */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024;
/** Largest snippet an import keeps; larger items fail with a reason and the rest go on. */
export const MAX_SNIPPET_CHARS = 4 * 1024 * 1024;
/** Longest name kept (longer ones are cut, not refused). */
const MAX_NAME_CHARS = 512;
const MAX_TAG_CHARS = 256;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

  add(item: string, snippet: Omit<ImportedSnippet, 'source'>): void {
    const source = `${this.file} › ${item}`;
    if (snippet.text.trim() === '') return this.fail(item, 'the snippet is empty');
    if (snippet.text.length > MAX_SNIPPET_CHARS) {
      return this.fail(item, `the snippet has ${snippet.text.length} characters; an import keeps up to ${MAX_SNIPPET_CHARS}`);
    }
    const tags = [...new Set(snippet.tags.map((tag) => tag.trim().slice(0, MAX_TAG_CHARS)).filter((tag) => tag !== ''))];
    const description = snippet.description?.trim();
    this.snippets.push({
      name: snippet.name.trim().slice(0, MAX_NAME_CHARS),
      text: snippet.text,
      language: snippet.language,
      tags,
      ...(description ? { description } : {}),
      source,
    });
  }

  result(format: ImportFormat): ParsedFile {
    return { format, snippets: this.snippets, failures: this.failures };
  }
}
