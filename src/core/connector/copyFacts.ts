/**
 * What the connector reads of a copied text to compare and judge it, from one tokenization of its
 * fingerprinted prefix (the first FINGERPRINT_CHARS): a copy of any size costs what 256 KiB does.
 */
import { FINGERPRINT_CHARS, keyOf, tokenize, winnow } from './fingerprint.ts';
import { codeShape, type CodeShape } from './codeShape.ts';
import { indexedPrefix } from '../search/tokens.ts';

export interface CopyFacts {
  /** `normalizedKey` of the text. */
  readonly key: string;
  /** `fingerprints` of the text. */
  readonly prints: Int32Array;
  readonly shape: CodeShape;
}

export function copyFacts(text: string): CopyFacts {
  const judged = indexedPrefix(text, FINGERPRINT_CHARS);
  const starts: number[] = [];
  const tokens = tokenize(judged, starts);
  return { key: keyOf(tokens), prints: winnow(tokens), shape: codeShape(judged, tokens, starts) };
}
