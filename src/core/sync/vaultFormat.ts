/**
 * The plain-file vault (docs/sync.md): the library as a directory that diffs and merges well.
 *
 *   satchel.json                          {"format": 1}
 *   assets/<shard>/<id>/snippet.md        front matter (fixed key order) + the description
 *   assets/<shard>/<id>/code.<language>   the content, byte for byte
 *
 * A memory (core/memories) is a record like a snippet whose snippet.md says `kind: "memory"` and
 * carries its project, its cited files (path, kind, hash and commit when written) and its links.
 *
 * The folder is named by the asset's id, so a rename edits one line of snippet.md and never moves
 * a file; the shard (two hex digits of the id's SHA-1) keeps every folder small. One record always
 * makes the same bytes (fixed key order, every string JSON-quoted), so "changed" is "its blobs
 * changed". This module is pure: records to files and back.
 */
import { reservedOnWindows } from '../fileNames.ts';
import { createHash } from 'node:crypto';
import { InvalidInputError } from '../errors.ts';
import { readFrontMatter, writeFrontMatter, type FrontValue } from './frontMatter.ts';
import { YamlError, type YamlText, type YamlValue } from './yamlReader.ts';
import { rfc3339 } from '../time.ts';
import { filesOf as memoryFilesOf, type MemoryFacts } from '../memories/memoryFacts.ts';

/** The vault format this Satchel writes; a vault of a later format is read by no older Satchel. */
export const VAULT_FORMAT = 1;
export const VAULT_MARKER = 'satchel.json';
export const VAULT_MARKER_TEXT = `${JSON.stringify({ format: VAULT_FORMAT })}\n`;
/**
 * The vault's own git attributes: no file is text to git, so a clone with `core.autocrlf=true`
 * (Git for Windows' default) checks every file out byte for byte and commits it back the same,
 * never turning a snippet's LF into CRLF (every snippet would then differ on the next import).
 */
export const VAULT_ATTRIBUTES = '.gitattributes';
export const VAULT_ATTRIBUTES_TEXT = '* -text\n';
export const ASSETS_DIR = 'assets';
export const SNIPPET_FILE = 'snippet.md';
const CODE_PREFIX = 'code.';

export interface VaultWebsite {
  readonly url: string;
  readonly name: string;
}

/** One asset as the vault keeps it: what the user made, not what the machine measured (scores, activities). */
export interface VaultAsset {
  readonly id: string;
  readonly name: string;
  /** A ClassificationSpecific (ts, py, png…). */
  readonly language: string;
  readonly tags: readonly string[];
  readonly websites: readonly VaultWebsite[];
  /** Absent when the asset has none. */
  readonly description?: string | undefined;
  /** ISO-8601, exactly as stored. */
  readonly created: string;
  readonly updated: string;
  readonly favorited: boolean;
  /** The text is VS Code snippet syntax (tab stops, placeholders). */
  readonly syntax: boolean;
  readonly prefixes: readonly string[];
  /** A conflict copy: the id of the asset whose remote version won (sync). */
  readonly conflictOf?: string | undefined;
  /** A conflict copy: the machine whose version it holds (conflictCopies.ts machineId), so each machine tells its own side. */
  readonly conflictFrom?: string | undefined;
  /** Text, or bytes for binary content (an image). */
  readonly content: string | Uint8Array;
  /** Present when the record is a memory: what it was written in and against. */
  readonly memory?: MemoryFacts | undefined;
}

/** Tags, prefixes and websites are sets: written in one order whatever order they were linked in. */
function byText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export function sortedTexts(texts: readonly string[]): string[] {
  return [...texts].sort(byText);
}

export function sortedWebsites(websites: readonly VaultWebsite[]): VaultWebsite[] {
  return [...websites].sort((a, b) => byText(a.url, b.url));
}

/** A file of a record's folder: its name in the folder and its bytes. */
export interface VaultFile {
  readonly name: string;
  readonly data: Buffer;
}

/** A vault's files do not make a record; the message says which and why. */
export class VaultFormatError extends InvalidInputError {}

const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The folder name of an id: itself when it is a safe file name (every id Satchel makes), else percent-encoded. */
export function idSegment(id: string): string {
  if (SAFE_SEGMENT.test(id) && !id.endsWith('.')) {
    // A folder named CON or nul.txt cannot be made on Windows: its first letter is escaped (CON → %43ON), which reads back the same.
    return reservedOnWindows(id) ? `%${id.charCodeAt(0).toString(16).toUpperCase()}${id.slice(1)}` : id;
  }
  return encodeURIComponent(id).replace(/\./g, '%2E').replace(/^-/, '%2D');
}

export function idOfSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function shardOf(id: string): string {
  return createHash('sha1').update(id, 'utf8').digest('hex').slice(0, 2);
}

/** The record's folder, relative to the vault's root, with forward slashes (git's and the export's). */
export function assetDir(id: string): string {
  return `${ASSETS_DIR}/${shardOf(id)}/${idSegment(id)}`;
}

/** A language as a file extension: itself when it is one (every ClassificationSpecific is). */
function extensionOf(language: string): string {
  return /^[A-Za-z0-9_+#-]{1,24}$/.test(language) ? language : 'txt';
}

/**
 * The record's files, in name order, made anew at each call: a sync holds every record of a first
 * sync at once, and keeping each one's bytes with it doubled what it held (issue 34); the folder's
 * id is what is kept (syncKinds.ts oidOf).
 */
export function assetFiles(asset: VaultAsset): readonly VaultFile[] {
  return makeAssetFiles(asset);
}

function makeAssetFiles(asset: VaultAsset): VaultFile[] {
  const binary = typeof asset.content !== 'string';
  const meta = writeFrontMatter(
    [
      ['id', asset.id],
      ['name', asset.name],
      ['language', asset.language],
      ['tags', asset.tags],
      ['prefixes', asset.prefixes.length > 0 ? asset.prefixes : undefined],
      ['syntax', asset.syntax || undefined],
      ['websites', asset.websites.length > 0 ? asset.websites.map((site) => ({ url: site.url, name: site.name })) : undefined],
      ['favorited', asset.favorited || undefined],
      ['conflict-of', asset.conflictOf],
      ['conflict-from', asset.conflictOf !== undefined ? asset.conflictFrom : undefined],
      ['binary', binary || undefined],
      ...memoryEntries(asset.memory),
      ['created', asset.created],
      ['updated', asset.updated],
    ],
    asset.description ?? '',
  );
  const content = typeof asset.content === 'string' ? Buffer.from(asset.content, 'utf8') : Buffer.from(asset.content);
  const files = [
    { name: `${CODE_PREFIX}${extensionOf(asset.language)}`, data: content },
    { name: SNIPPET_FILE, data: Buffer.from(meta, 'utf8') },
  ];
  return files.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A memory's front matter keys (none for a snippet), in a fixed order. */
function memoryEntries(memory: MemoryFacts | undefined): Array<readonly [string, FrontValue | undefined]> {
  if (memory === undefined) return [];
  return [
    ['kind', 'memory'],
    ['project', memory.project],
    ['files', memory.files.length > 0 ? memory.files.map((file) => ({ path: file.path, kind: file.kind, ...(file.hash !== undefined ? { hash: file.hash } : {}), ...(file.commit !== undefined ? { commit: file.commit } : {}) })) : undefined],
    ['links', memory.links.length > 0 ? memory.links : undefined],
    ['client', memory.client],
  ];
}

/** The memory facts of a record's front matter (its texts: every fact is a string); undefined for a snippet. */
function memoryOf(data: { readonly [key: string]: YamlText }): MemoryFacts | undefined {
  if (data.kind !== 'memory') return undefined;
  const project = text(data.project);
  const client = text(data.client);
  return { ...(project !== '' ? { project } : {}), files: memoryFilesOf(data.files), links: texts(data.links), ...(client !== '' ? { client } : {}) };
}

/** The record a folder's files make; `id` is the folder's (it wins over a copied folder's `id:` line). */
export function parseAsset(id: string, files: readonly VaultFile[], now: () => string = () => new Date().toISOString()): VaultAsset {
  const metaFile = files.find((file) => file.name === SNIPPET_FILE);
  if (!metaFile) throw new VaultFormatError(`${id}: no ${SNIPPET_FILE}`);
  const codes = files.filter((file) => file.name.startsWith(CODE_PREFIX));
  if (codes.length !== 1) throw new VaultFormatError(`${id}: ${codes.length === 0 ? 'no code file' : 'more than one code file'}`);
  let front;
  try {
    front = readFrontMatter(metaFile.data.toString('utf8'));
  } catch (error) {
    if (error instanceof YamlError) throw new VaultFormatError(`${id}/${SNIPPET_FILE}: ${error.message}`);
    throw error;
  }
  if (!front) throw new VaultFormatError(`${id}/${SNIPPET_FILE}: no front matter`);
  const data = front.data;
  // Fields that are strings in the record read the texts as written (a hand-typed `name: 1e3` stays "1e3").
  const written = front.texts;
  const code = codes[0]!;
  const language = text(written.language) || code.name.slice(CODE_PREFIX.length);
  const binary = data.binary === true;
  const created = vaultTime(data.created) ?? vaultTime(data.updated) ?? now();
  return {
    id,
    // A blank name (a hand edit on the git host) is no name, as the create door takes it: the id stands in.
    name: text(written.name).trim() === '' ? id : text(written.name),
    language,
    tags: texts(written.tags),
    websites: websites(written.websites),
    ...(front.body !== '' ? { description: front.body } : {}),
    created,
    updated: vaultTime(data.updated) ?? created,
    favorited: data.favorited === true,
    syntax: data.syntax === true,
    prefixes: texts(written.prefixes),
    ...(text(written['conflict-of']) ? { conflictOf: text(written['conflict-of']) } : {}),
    ...(text(written['conflict-of']) && text(written['conflict-from']) ? { conflictFrom: text(written['conflict-from']) } : {}),
    content: binary ? new Uint8Array(code.data) : code.data.toString('utf8'),
    ...(memoryOf(written) !== undefined ? { memory: memoryOf(written) } : {}),
  };
}

function text(value: YamlValue | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function texts(value: YamlValue | undefined): string[] {
  if (Array.isArray(value)) return value.map(text).filter((item) => item !== '');
  const single = text(value);
  return single === '' ? [] : [single];
}

function websites(value: YamlValue | undefined): VaultWebsite[] {
  if (!Array.isArray(value)) return [];
  const out: VaultWebsite[] = [];
  for (const item of value) {
    if (typeof item === 'string' && item !== '') out.push({ url: item, name: item });
    else if (item !== null && typeof item === 'object' && !Array.isArray(item) && text(item.url) !== '') {
      out.push({ url: text(item.url), name: text(item.name) || text(item.url) });
    }
  }
  return out;
}

/** An ISO time as written; a number is milliseconds since the epoch (massCode writes those). Anything else is no time. */
export function vaultTime(value: YamlValue | undefined): string | undefined {
  if (typeof value === 'number') {
    // new Date(1e20) is an Invalid Date, whose toISOString throws.
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return typeof value === 'string' ? rfc3339(value) : undefined;
}

/** Whether two records are the same (the same files, byte for byte). */
export function sameAsset(a: VaultAsset | undefined, b: VaultAsset | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = assetFiles(a);
  const y = assetFiles(b);
  return x.length === y.length && x.every((file, i) => file.name === y[i]!.name && file.data.equals(y[i]!.data));
}
