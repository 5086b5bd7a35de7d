/**
 * Messages between the store's process and the child process imports run in (importProcess.ts,
 * importHost.ts). The child pulls the files one at a time, asks the store's process to classify
 * snippets its file did not name a language for, and reports each written batch's change events
 * (after its commit) before the progress that counts it.
 */
import { DomainError, type DomainErrorCode } from '../errors.ts';
import type { ChangeEvent } from '../events.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import type { ImportFormat, ParsedFile } from './types.ts';
import type { ImportProgress, ImportSummary } from './importer.ts';

/** The child's bundle, next to the other bundles in dist/ (kept in step with esbuild.mjs). */
export const bundledImportHost = 'importHost.cjs';

export interface ImportHostData {
  /** The database file and the schema version the store's own connection opened it at. */
  readonly path: string;
  readonly schemaVersion: number;
}

/** A file as it crosses to the child: its text, what a client already read of it, or why reading it failed. */
export type SourceMessage =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly parsed: ParsedFile }
  /**
   * The text as its JSON string's bytes (ImportSource's `jsonText`), decoded in the child: a piece of
   * them (at most SOURCE_PIECE_BYTES), `more` when further pieces follow (the child asks for each).
   */
  | { readonly name: string; readonly jsonText: Uint8Array; readonly more?: boolean }
  /** A spooled file (importSpool.ts): the child reads it by its path. */
  | { readonly name: string; readonly spooled: string }
  | { readonly name: string; readonly error: { readonly message: string; readonly code: string; readonly syscall: string } };

/**
 * A file's bytes cross in pieces of at most this. Sent whole, a 9 MB file was serialized into one
 * buffer of its size, which stayed in the store's process until its next collection (issue 34).
 */
export const SOURCE_PIECE_BYTES = 1024 * 1024;

export interface ImportStart {
  readonly type: 'import';
  readonly id: number;
  readonly options: { readonly batchSize?: number | undefined; readonly format?: ImportFormat | undefined; readonly files?: number | undefined };
}

export type ToChild =
  | ImportStart
  | { readonly type: 'source'; readonly id: number; readonly source: SourceMessage | undefined }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'classified'; readonly request: number; readonly language: ClassificationSpecific }
  /**
   * Finish (a running import is cancelled at its next batch), close the connection and end; `merge`:
   * the session ended as planned, so the search index is merged here first (ImportStore.finish).
   */
  | { readonly type: 'close'; readonly merge?: boolean };

/** An error of the import, as the store's process re-throws it. */
export interface ErrorMessage {
  readonly message: string;
  /** Set for a DomainError: the same code is thrown on the other side. */
  readonly code?: DomainErrorCode | undefined;
}

export type FromChild =
  /** The child opened the store and takes imports. */
  | { readonly type: 'ready' }
  | { readonly type: 'next'; readonly id: number }
  | { readonly type: 'classify'; readonly request: number; readonly text: string }
  | { readonly type: 'written'; readonly id: number; readonly changes: readonly ChangeEvent[] }
  | { readonly type: 'progress'; readonly id: number; readonly progress: ImportProgress }
  | { readonly type: 'done'; readonly id: number; readonly summary: ImportSummary }
  | { readonly type: 'failed'; readonly id: number; readonly error: ErrorMessage };

/** A DomainError of the child, thrown again in the store's process with its code (the HTTP status follows it). */
export class RelayedError extends DomainError {
  readonly code: DomainErrorCode;
  constructor(code: DomainErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function errorMessage(error: unknown): ErrorMessage {
  if (error instanceof DomainError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error) };
}

export function relayedError(error: ErrorMessage): Error {
  return error.code ? new RelayedError(error.code, error.message) : new Error(error.message);
}
