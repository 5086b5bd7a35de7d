/**
 * How large each kind of stored input may be: one limit per kind, checked in core, so every door
 * (create, draft, update, tags and websites, MCP, the language-model tools, the import, messages
 * and copilot questions, and sync) refuses the same input with the same TooLargeError (HTTP 413).
 * docs/limits.md gives the reason for each value.
 *
 * A check refuses a write that takes a record over its limit or further over it. A store written
 * before a limit existed keeps working: its larger records are read, listed, searched and exported
 * as they are, and a write that does not grow their over-limit part (renaming a 60 MB snippet,
 * removing one of its 200k tags, saving its unchanged content back) goes through.
 */
import { TooLargeError } from './errors.ts';
import { countText } from './countText.ts';

const MI = 1024 * 1024;

export const LIMITS = {
  /** A snippet's text content, in characters (JavaScript string length), however it is sent. */
  contentChars: 4 * MI,
  /** A snippet's binary content (bytes that are not UTF-8 text: images, archives), in bytes. */
  contentBytes: 8 * MI,
  /** The name of a snippet, conversation, website or workstream summary. */
  nameChars: 512,
  /** Distinct tags on one snippet. */
  tagsPerAsset: 128,
  /** The text of one tag. */
  tagChars: 256,
  /** Websites linked to one snippet. */
  websitesPerAsset: 64,
  /** The url of a website. */
  urlChars: 2048,
  /** One conversation message (a copilot question is one), all of its text and bytes. */
  messageChars: 4 * MI,
  /** The text of one annotation (a snippet's description, a comment, a summary). */
  annotationChars: 4 * MI,
  /** One file an import reads (the whole file is refused beyond it). */
  importFileChars: 256 * MI,
} as const;

export type LimitKind = keyof typeof LIMITS;

/** What each limit bounds and in which unit, for the messages. */
const WHAT: Record<LimitKind, readonly [what: string, unit: string]> = {
  contentChars: ["A snippet's text content", 'characters'],
  contentBytes: ["A snippet's binary content", 'bytes'],
  nameChars: ['A name', 'characters'],
  tagsPerAsset: ['A snippet', 'tags'],
  tagChars: ['A tag', 'characters'],
  websitesPerAsset: ['A snippet', 'websites'],
  urlChars: ["A website's url", 'characters'],
  messageChars: ['A conversation message', 'characters'],
  annotationChars: ['An annotation', 'characters'],
  importFileChars: ['An import file', 'characters'],
};

/** An input over one of LIMITS: which, the limit and the size it had. */
export class LimitExceededError extends TooLargeError {
  readonly kind: LimitKind;
  readonly limit: number;
  readonly actual: number;
  /** `atLeast`: `actual` is a lower bound (the count stopped there, past the limit); `why`: a sentence the message ends with. */
  constructor(kind: LimitKind, actual: number, atLeast = false, why?: string) {
    super(why === undefined ? limitMessage(kind, actual, atLeast) : `${limitMessage(kind, actual, atLeast)}. ${why}`);
    this.kind = kind;
    this.limit = LIMITS[kind];
    this.actual = actual;
  }
}

/** "A snippet's text content has 62,914,560 characters; the limit is 4,194,304 (see docs/limits.md)". */
export function limitMessage(kind: LimitKind, actual: number, atLeast = false): string {
  const [what, unit] = WHAT[kind];
  return `${what} has ${atLeast ? 'at least ' : ''}${countText(actual)} ${unit}; the limit is ${countText(LIMITS[kind])} (see docs/limits.md)`;
}

/**
 * Why `actual` may not be stored, or undefined when it may: it is over the limit of `kind` and
 * larger than `before`, what the record already holds of it (0 for a new record).
 */
export function overLimit(kind: LimitKind, actual: number, before = 0): string | undefined {
  return actual > LIMITS[kind] && actual > before ? limitMessage(kind, actual) : undefined;
}

/** Throws LimitExceededError when `overLimit` finds a reason. */
export function checkLimit(kind: LimitKind, actual: number, before = 0): void {
  if (actual > LIMITS[kind] && actual > before) throw new LimitExceededError(kind, actual);
}

/**
 * Refuses one more of `kind` on a record that holds `held` of them. `counted` counts them, stopping
 * at the number it is given: past the limit the exact count does not matter, and an asset written
 * before the limits may hold 200k tags (counting them all took 30–50 ms).
 */
export function checkRoom(kind: 'tagsPerAsset' | 'websitesPerAsset', counted: (atMost: number) => number): void {
  const limit = LIMITS[kind];
  const held = counted(limit + 1);
  if (held >= limit) throw new LimitExceededError(kind, held + 1, held > limit);
}

/** A content's size the way the limits count it: text characters, and bytes when it came as bytes. */
export interface ContentSize {
  readonly text: string;
  readonly bytes?: readonly number[];
}

/**
 * Refuses content over its limit: text (a string in any encoding, or bytes that are UTF-8 text)
 * by characters, binary bytes by bytes. `before` is the content the record holds now.
 */
export function checkContent(content: ContentSize, before?: ContentSize): void {
  if (content.bytes !== undefined && content.text === '') checkLimit('contentBytes', content.bytes.length, before?.bytes?.length ?? 0);
  else checkLimit('contentChars', content.text.length, before?.text.length ?? 0);
}

/** Refuses more distinct tag texts (compared as tags are: trimmed, ignoring case) than a snippet takes, or a longer one. */
export function checkSeededTags(texts: readonly string[]): void {
  for (const text of texts) checkLimit('tagChars', text.trim().length);
  checkLimit('tagsPerAsset', new Set(texts.map((text) => text.trim().toLowerCase())).size);
}

/** Refuses more distinct urls than a snippet takes, or a longer one, or a longer name. */
export function checkSeededWebsites(websites: readonly { readonly url: string; readonly name?: string }[]): void {
  for (const website of websites) {
    checkLimit('urlChars', website.url.trim().length);
    if (website.name !== undefined) checkLimit('nameChars', website.name.trim().length);
  }
  checkLimit('websitesPerAsset', new Set(websites.map((website) => website.url.trim())).size);
}
