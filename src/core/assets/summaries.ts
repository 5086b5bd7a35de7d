/**
 * What a listing shows of an asset (the MCP tools' and resources' lists): its name, language,
 * first tags and the opening of its text, read from the row's columns, the tag links and the
 * text's head, never from a whole document: a summary of a 60 MB snippet cost parsing 60 MB.
 */
import type { AssetStore } from './assetStore.ts';
import type { Labels } from './labels.ts';

/** Characters of a text a summary carries: more than any preview shows, so it can tell there is more. */
export const SUMMARY_CHARS = 1024;
/** Tags a summary names (a snippet takes 128; a store written before the limits may hold 200k). */
export const SUMMARY_TAGS = 32;

export interface AssetSummary {
  readonly id: string;
  readonly name: string;
  /** The stored classification of its original format (`ts`, `py`…). */
  readonly language: string;
  /** ISO time of its creation. */
  readonly created: string;
  /** Its first SUMMARY_TAGS tags, oldest first. */
  readonly tags: string[];
  /** Whether it carries more tags than `tags` names. */
  readonly moreTags: boolean;
  /** The opening of its text, at most SUMMARY_CHARS characters ('' for binary content). */
  readonly text: string;
  /** Characters of its whole text. */
  readonly chars: number;
  /** Its content is bytes that are not text (an image). */
  readonly binary: boolean;
}

/** Summaries of the ordinary assets among `ids`, in that order (others are left out). */
export function summariesOf(store: AssetStore, labels: Labels, ids: readonly string[]): AssetSummary[] {
  return store.heads.of('id', ids, SUMMARY_CHARS).map((head) => {
    // Read in the same synchronous step as its head: no write came between.
    const { language, created } = store.facts(head.rowid)!;
    const tags = labels.tagTexts(head.id, SUMMARY_TAGS + 1);
    return {
      id: head.id,
      name: head.name,
      language,
      created,
      tags: tags.slice(0, SUMMARY_TAGS),
      moreTags: tags.length > SUMMARY_TAGS,
      text: head.text,
      chars: head.chars,
      binary: head.binary,
    };
  });
}
