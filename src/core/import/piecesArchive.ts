/**
 * The folder Pieces' own export tool writes (pieces-app/export-tool, archive format 5,
 * EXPORT_LAYOUT.md): beside its Markdown and PDF renderings it keeps every record as Pieces OS
 * served it, one JSON file per record, in `data/<material>/` (the default, filtered mode: secrets
 * redacted, binary content withheld) or `raw/<material>/` (`--mode preserve`), and `manifest.json`
 * says which tool and format wrote it. The records are read here into the same parts an import of a
 * running Pieces OS makes (piecesRecords.ts), so the snippets keep their Pieces ids either way: a
 * library imported from its export and later from Pieces OS (or the other way round) is not doubled.
 */
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

/**
 * An archive's files, over whichever file system holds it: node's for the CLI (piecesArchiveDisk.ts),
 * VS Code's in the editor (the folder may be on another machine). Paths are relative to the
 * archive's folder, '/'-separated.
 */
export interface ArchiveFiles {
  /** What messages and the import's summary call the archive (its folder). */
  readonly label: string;
  /** The file's text; undefined when it is not there or cannot be read. */
  read(path: string): Promise<string | undefined>;
  /** The names of the `.json` files directly in the folder `path`; [] when there is no such folder. */
  jsonFiles(path: string): Promise<string[]>;
  /** Whether the folder `path` exists. */
  isFolder(path: string): Promise<boolean>;
}

/** One part of an archive's import: read when the import gets to it. */
export interface ArchivePart {
  readonly name: string;
  read(): Promise<ParsedFile>;
}

/** The folder of records (`raw` or `data`) when the files are an export tool's archive, else undefined. */
export async function piecesArchiveRecords(files: ArchiveFiles): Promise<string | undefined> {
  let manifest: unknown;
  try {
    manifest = JSON.parse((await files.read('manifest.json')) ?? 'null');
  } catch {
    return undefined;
  }
  if (!isRecord(manifest) || typeof manifest.format_version !== 'number' || typeof manifest.tool_version !== 'string') return undefined;
  // A run uses one of the two (EXPORT_LAYOUT.md); preserve mode's raw/ keeps what filtering withholds.
  for (const name of ['raw', 'data']) if (await files.isFolder(name)) return name;
  return undefined;
}

/** The archive's records as import parts: its assets a part at a time, then its conversations. */
export async function piecesArchiveParts(files: ArchiveFiles): Promise<ArchivePart[]> {
  const records = await piecesArchiveRecords(files);
  if (records === undefined) throw new InvalidInputError(`${files.label} is not a folder written by Pieces' export tool (no manifest.json with data/ or raw/)`);
  const folder = (kind: keyof typeof FOLDERS): string => `${records}/${FOLDERS[kind]}`;
  let index: Promise<ArchiveIndex> | undefined;
  const indexed = (): Promise<ArchiveIndex> => (index ??= readIndex(files, folder));
  const readAll = async (kind: keyof typeof FOLDERS, names: readonly string[]): Promise<unknown[]> => Promise.all(names.map((name) => readRecord(files, `${folder(kind)}/${name}`)));
  const assets = await files.jsonFiles(folder('asset'));
  const conversations = await files.jsonFiles(folder('conversation'));
  // The last segment names the import's author in the snippets' history: "Pieces-Export › assets".
  const name = (kind: 'asset' | 'conversation'): string => `${files.label} › ${FOLDERS[kind]}`;
  const parts: ArchivePart[] = [];
  for (let at = 0; at < assets.length; at += ASSETS_PER_PART) {
    const chunk = assets.slice(at, at + ASSETS_PER_PART);
    parts.push({ name: name('asset'), read: async () => piecesPart(name('asset'), await readAll('asset', chunk), [], await indexed()) });
  }
  for (let at = 0; at < conversations.length; at += CONVERSATIONS_PER_PART) {
    const chunk = conversations.slice(at, at + CONVERSATIONS_PER_PART);
    parts.push({
      name: name('conversation'),
      read: async () => {
        const library = await indexed();
        const read = (await readAll('conversation', chunk)).map((conversation): PiecesConversation => ({ conversation, messages: library.messagesOf(idOf(conversation)) }));
        return piecesPart(name('conversation'), [], read, library);
      },
    });
  }
  return parts;
}

type ArchiveIndex = PiecesIndex & { messagesOf(id: string): Json[] };

/** Every related record of the archive, and its messages by conversation. */
async function readIndex(files: ArchiveFiles, folder: (kind: keyof typeof FOLDERS) => string): Promise<ArchiveIndex> {
  const index = new PiecesIndex();
  const readFolder = async (kind: keyof typeof FOLDERS): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const name of await files.jsonFiles(folder(kind))) out.push(await readRecord(files, `${folder(kind)}/${name}`));
    return out;
  };
  for (const kind of ['format', 'tag', 'website', 'annotation', 'anchor', 'anchorPoint'] as const) index.add(kind, await readFolder(kind));
  const messages = new Map<string, Json[]>();
  for (const message of await readFolder('message')) {
    if (!isRecord(message)) continue;
    const conversation = idOf(message.conversation);
    messages.set(conversation, [...(messages.get(conversation) ?? []), message]);
  }
  return Object.assign(index, { messagesOf: (id: string) => messages.get(id) ?? [] });
}

/** One record file's JSON; a file that is too large or not JSON reads as nothing (its record then fails or is left out). */
async function readRecord(files: ArchiveFiles, path: string): Promise<unknown> {
  const text = await files.read(path);
  if (text === undefined || text.length > LIMITS.importFileChars) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
