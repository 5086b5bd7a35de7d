/**
 * What a revision keeps of an asset: its content, name, description, language and tags. Anything
 * else (scores, favorites, activities, websites) changes without making a revision.
 */
import { createHash } from 'node:crypto';

/** An asset's content: text, or bytes when it is binary (`text` is then '' unless the bytes are UTF-8). */
export interface RevisionContent {
  readonly text: string;
  readonly bytes?: readonly number[] | undefined;
}

export interface AssetState {
  readonly name: string;
  /** The original format's classification (a ClassificationSpecific). */
  readonly language: string;
  readonly content: RevisionContent;
  /** Tag texts, in the order the asset's tags were linked. */
  readonly tags: readonly string[];
  /** The DESCRIPTION annotation's text; undefined when the asset has none. */
  readonly description: string | undefined;
}

/** What a revision changed from the one before it (a bit set in the store). */
export const CHANGE_BITS = {
  created: 1,
  content: 2,
  name: 4,
  language: 8,
  tags: 16,
  description: 32,
  /** Brought back from the trash, in the state it had when it was deleted. */
  restored: 64,
} as const;

export type ChangeKind = keyof typeof CHANGE_BITS;

const CHANGE_KINDS = Object.keys(CHANGE_BITS) as ChangeKind[];

export function changeKinds(bits: number): ChangeKind[] {
  return CHANGE_KINDS.filter((kind) => (bits & CHANGE_BITS[kind]) !== 0);
}

/** The key a text is stored under: its kind and its SHA-256 (binary and text contents never share one). */
export function contentHash(content: RevisionContent): string {
  if (isBinary(content)) return `b:${createHash('sha256').update(Uint8Array.from(content.bytes)).digest('hex')}`;
  return textHash(content.text);
}

export function textHash(text: string): string {
  return `t:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** Binary content is kept as bytes; bytes that are UTF-8 text were stored as their text. */
export function isBinary(content: RevisionContent): content is RevisionContent & { readonly bytes: readonly number[] } {
  return content.bytes !== undefined && content.text === '';
}

/** The content's size in bytes, as revision lists show it. */
export function contentSize(content: RevisionContent): number {
  return isBinary(content) ? content.bytes.length : Buffer.byteLength(content.text, 'utf8');
}

/** Whether two contents are the same (a string compare is a pointer compare when nothing changed). */
export function sameContent(a: RevisionContent, b: RevisionContent): boolean {
  if (a.text !== b.text) return false;
  const x = a.bytes;
  const y = b.bytes;
  if (x === y) return true;
  if (x === undefined || y === undefined || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Tag lists compared as the store compares tags: as sets of texts, ignoring case. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const key = (tags: readonly string[]): string => tags.map((tag) => tag.toLowerCase()).sort().join('\u0000');
  return key(a) === key(b);
}
