/**
 * What an import reads, and how each kind of file is read into snippets where the import runs (the
 * import process, or the store's process without one).
 */
import { parseImportFile } from './detect.ts';
import { textOfJsonString } from './jsonText.ts';
import { readSpooled } from './spoolFile.ts';
import type { ImportFormat, ParsedFile } from './types.ts';

/** A file to import: its text, or what a client already read of it (a file too large for one request, sent in parts). */
export type ImportSource =
  | {
      /** What the summary calls the file (a path or a picked file's name). */
      readonly name: string;
      /** The file's text; read when the importer gets to it, so a folder is never held at once. */
      text(): Promise<string> | string;
    }
  | { readonly name: string; readonly parsed: ParsedFile }
  | {
      readonly name: string;
      /**
       * The file's text as the UTF-8 bytes of a JSON string, quotes included, as a request body
       * carries it: decoded where the import runs, so the process that received the request never
       * holds the text as a string (issue 34).
       */
      readonly jsonText: Uint8Array;
      /** Called once the import has the text of its own (decoded, or copied to its process): the bytes may then be freed. */
      taken?(): void;
    }
  | {
      readonly name: string;
      /** The path of a file holding what `jsonText` would (importSpool.ts): read where the import runs, removed once read. */
      readonly spooled: string;
    };

/** The file's snippets; throws what reading or parsing it threw (the importer fails the file alone for a file or domain error). */
export async function parsedSource(source: ImportSource, format: ImportFormat | undefined): Promise<ParsedFile> {
  if ('parsed' in source) return source.parsed;
  if ('spooled' in source) return parseImportFile(source.name, textOfJsonString(await readSpooled(source.spooled)), format);
  if (!('jsonText' in source)) return parseImportFile(source.name, await source.text(), format);
  const text = textOfJsonString(source.jsonText);
  source.taken?.();
  return parseImportFile(source.name, text, format);
}
