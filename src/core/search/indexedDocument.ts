/**
 * What the search index holds of a snippet: its name, tags, code and the code's identifiers,
 * scanned once (searchIndex.ts indexes it; an import's preparer makes it ahead, preparedAsset.ts).
 */
import { WORD_INDEX_IDENTIFIERS, distinctIdentifiers } from './tokens.ts';

export interface IndexedDocument {
  readonly name: string;
  /** Tag texts, space separated. */
  readonly tags: string;
  /** The asset's searchable text content ('' for binary content). */
  readonly code: string;
  /** The code's distinct identifiers, space separated: scanned once per write, held twice (keywords, asset_nt). */
  readonly identifiers: string;
  /** The longer list of them the word index splits into sub-tokens (from the same scan). */
  readonly wordIdentifiers?: readonly string[];
  /** The word index's text when it was made ahead (an import's preparer, preparedAsset.ts). */
  readonly wordText?: string;
}

/** Of the code's identifiers, the first this many are indexed by substring (asset_nt) and kept as keywords. */
export const INDEXED_IDENTIFIERS = 400;

/**
 * What the index holds of a name, tags and code. The code is scanned for identifiers once: the
 * first INDEXED_IDENTIFIERS go to the substring index, all of them to the word index's sub-tokens.
 */
export function indexedDocument(name: string, tags: string, code: string): IndexedDocument {
  const found = distinctIdentifiers(code, WORD_INDEX_IDENTIFIERS);
  return { name, tags, code, identifiers: found.slice(0, INDEXED_IDENTIFIERS).join(' '), wordIdentifiers: found };
}

/** Of a name, and of the tags, this much is indexed (a title is something a person reads). */
export const INDEXED_NAME_CHARS = 1_024;
export const INDEXED_TAGS_CHARS = 4_096;
