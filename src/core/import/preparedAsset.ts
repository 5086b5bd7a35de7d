/**
 * The pure computation of an imported asset's derived rows, apart from the writes: the code's
 * identifiers (substring index and keywords), the word index's text, and the connector's
 * fingerprints. An import computes these for batch N+1 on a worker thread (batchPreparer.ts) while
 * the writer commits batch N; the worker and the in-thread fallback both call `prepareAsset`, so
 * the stored rows are the same either way.
 */
import { WORD_INDEX_IDENTIFIERS, distinctIdentifiers, wordIndexText } from '../search/tokens.ts';
import { INDEXED_IDENTIFIERS } from '../search/indexedDocument.ts';
import { defaultFingerprintOptions, fingerprints, textHash, type PreparedFingerprint } from '../connector/fingerprint.ts';

export interface PreparedAsset {
  /** The first INDEXED_IDENTIFIERS distinct identifiers, space separated. */
  readonly identifiers: string;
  /** What the word index holds of the code (the code's prefix and the identifiers' sub-tokens). */
  readonly wordText: string;
  readonly fingerprint: PreparedFingerprint;
}

export function prepareAsset(text: string): PreparedAsset {
  const found = distinctIdentifiers(text, WORD_INDEX_IDENTIFIERS);
  return {
    identifiers: found.slice(0, INDEXED_IDENTIFIERS).join(' '),
    wordText: wordIndexText(text, found),
    fingerprint: { identity: textHash(text), hashes: fingerprints(text, defaultFingerprintOptions) },
  };
}
