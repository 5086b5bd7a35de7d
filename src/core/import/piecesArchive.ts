/**
 * The folder Pieces' own export tool writes (pieces-app/export-tool, archive format 5,
 * EXPORT_LAYOUT.md): beside its Markdown and PDF renderings it keeps every record as Pieces OS
 * served it, one JSON file per record, in `data/<material>/` (the default, filtered mode: secrets
 * redacted, binary content withheld) or `raw/<material>/` (`--mode preserve`), and `manifest.json`
 * says which tool and format wrote it. The records are read here into the same parts an import of a
 * running Pieces OS makes (piecesRecords.ts), so the snippets keep their Pieces ids either way: a
 * library imported from its export and later from Pieces OS (or the other way round) is not doubled.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isRecord, type ParsedFile } from './types.ts';
import { idOf, PiecesIndex, type Json, type RelatedKind } from './piecesIndex.ts';
import { piecesPart, type PiecesConversation } from './piecesRecords.ts';

const ASSETS_PER_PART = 500;
const CONVERSATIONS_PER_PART = 200;

/** The export tool's folder of each material it keeps (its Materials table's `Folder`). */
const FOLDERS: Readonly<Record<RelatedKind | 'asset' | 'conversation' | 'message', string>> = {
  asset: 'assets',
  format: 'formats',
  tag: 'tags',
  website: 'websites',
  annotation: 'annotations',
  anchor: 'anchors',
  anchorPoint: 'anchor_points',
  conversation: 'conversations',
  message: 'messages',
};

/** The folder of records (`data/` or `raw/`) when `dir` is an export tool's archive, else undefined. */
export function piecesArchiveRecords(dir: string): string | undefined {
  let manifest: unknown;
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(manifest) || typeof manifest.format_version !== 'number' || typeof manifest.tool_version !== 'string') return undefined;
  // A run uses one of the two (EXPORT_LAYOUT.md); preserve mode's raw/ keeps what filtering withholds.
  return ['raw', 'data'].map((name) => join(dir, name)).find((path) => existsSync(path));
}

/** The archive's records as import parts: its assets a part at a time, then its conversations. Each part is read when its turn comes. */
export function piecesArchiveParts(dir: string): Array<{ readonly name: string; read(): ParsedFile }> {
  const records = piecesArchiveRecords(dir);
  if (records === undefined) throw new InvalidInputError(`${dir} is not a folder written by Pieces' export tool (no manifest.json with data/ or raw/)`);
  let index: ArchiveIndex | undefined;
  const indexed = (): ArchiveIndex => (index ??= readIndex(records));
  const assets = jsonFiles(join(records, FOLDERS.asset));
  const conversations = jsonFiles(join(records, FOLDERS.conversation));
  const parts: Array<{ readonly name: string; read(): ParsedFile }> = [];
  for (let at = 0; at < assets.length; at += ASSETS_PER_PART) {
    const files = assets.slice(at, at + ASSETS_PER_PART);
    parts.push({ name: join(records, FOLDERS.asset), read: () => piecesPart(join(records, FOLDERS.asset), files.map(readRecord), [], indexed()) });
  }
  for (let at = 0; at < conversations.length; at += CONVERSATIONS_PER_PART) {
    const files = conversations.slice(at, at + CONVERSATIONS_PER_PART);
    parts.push({
      name: join(records, FOLDERS.conversation),
      read: () => {
        const library = indexed();
        const chunk: PiecesConversation[] = files.map(readRecord).map((conversation) => ({ conversation, messages: library.messagesOf(idOf(conversation)) }));
        return piecesPart(join(records, FOLDERS.conversation), [], chunk, library);
      },
    });
  }
  return parts;
}

type ArchiveIndex = PiecesIndex & { messagesOf(id: string): Json[] };

/** Every related record of the archive, and its messages by conversation. */
function readIndex(records: string): ArchiveIndex {
  const index = new PiecesIndex();
  for (const kind of ['format', 'tag', 'website', 'annotation', 'anchor', 'anchorPoint'] as const) {
    index.add(kind, jsonFiles(join(records, FOLDERS[kind])).map(readRecord));
  }
  const messages = new Map<string, Json[]>();
  for (const message of jsonFiles(join(records, FOLDERS.message)).map(readRecord)) {
    if (!isRecord(message)) continue;
    const conversation = idOf(message.conversation);
    messages.set(conversation, [...(messages.get(conversation) ?? []), message]);
  }
  return Object.assign(index, { messagesOf: (id: string) => messages.get(id) ?? [] });
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** One record file's JSON; a file that is too large or not JSON reads as nothing (its record then fails or is left out). */
function readRecord(file: string): unknown {
  try {
    if (statSync(file).size > LIMITS.importFileChars) return undefined;
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
