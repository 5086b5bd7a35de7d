/**
 * Which import format a file is, from its content (and its name for VS Code's files), and the file
 * read into snippets. Every reader is one pass over the parsed JSON; the JSON itself is parsed
 * once (by jsonc-parser only when strict JSON fails: jsonc.ts).
 */
import { limitMessage } from '../limits.ts';
import { ImportFormatError, ImportTooLargeError, MAX_IMPORT_FILE_BYTES, type ImportFormat, type ParsedFile } from './types.ts';
import { JsoncError, parseJsonc } from './jsonc.ts';
import { isVscodeSnippets, parseVscodeSnippets } from './vscodeSnippets.ts';
import { isMassCodeDatabase, parseMassCode } from './massCode.ts';
import { isGistJson, parseGists } from './gist.ts';
import { isPiecesExport, parsePieces } from './pieces.ts';
import { isRaycastSnippets, parseRaycast } from './raycast.ts';
import { isSnippetsExtensionData, parseSnippetsExtension } from './snippetsExtension.ts';
import { isJetbrainsTemplates, parseJetbrains } from './jetbrains.ts';

const notImported =
  'not a file Satchel imports (VS Code snippets, a massCode db.json, a Pieces /assets export, GitHub Gist JSON, Raycast snippets, an export of the Snippets extension or JetBrains live templates)';

/** The format of an already parsed file, or undefined when it is none of them. */
export function detectFormat(value: unknown): ImportFormat | undefined {
  if (isMassCodeDatabase(value)) return 'masscode';
  if (isGistJson(value)) return 'gist';
  if (isPiecesExport(value)) return 'pieces';
  if (isRaycastSnippets(value)) return 'raycast';
  if (isSnippetsExtensionData(value)) return 'snippets-extension';
  if (isVscodeSnippets(value)) return 'vscode';
  return undefined;
}

/** Reads one file's text into snippets; throws ImportFormatError or ImportTooLargeError for the whole file. */
export function parseImportFile(file: string, text: string, format?: ImportFormat): ParsedFile {
  // Characters, not bytes: a bound either way, and checked before any parsing.
  if (text.length > MAX_IMPORT_FILE_BYTES) {
    throw new ImportTooLargeError(`${file}: ${limitMessage('importFileChars', text.length)}`);
  }
  // JetBrains' live templates are XML: the one format that is not JSON.
  if ((format === undefined || format === 'jetbrains') && isJetbrainsTemplates(text)) return parseJetbrains(file, text);
  if (format === 'jetbrains') throw new ImportFormatError(file, 'not a jetbrains file (XML holding a <templateSet>)');
  if (/^\s*</.test(text.slice(0, 1024))) throw new ImportFormatError(file, format ? `not a ${format} file` : notImported);
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (error) {
    if (error instanceof JsoncError) throw new ImportFormatError(file, `not JSON (${error.message})`);
    throw error;
  }
  const detected = format ?? detectFormat(value);
  switch (detected) {
    case 'masscode':
      if (!isMassCodeDatabase(value)) break;
      return parseMassCode(file, value);
    case 'gist':
      return parseGists(file, value);
    case 'pieces':
      return parsePieces(file, value);
    case 'raycast':
      if (!isRaycastSnippets(value)) break;
      return parseRaycast(file, value);
    case 'snippets-extension':
      if (!isSnippetsExtensionData(value)) break;
      return parseSnippetsExtension(file, value);
    case 'vscode':
      if (!isVscodeSnippets(value)) break;
      return parseVscodeSnippets(file, value);
    default:
      break;
  }
  throw new ImportFormatError(file, format ? `not a ${format} file` : notImported);
}
