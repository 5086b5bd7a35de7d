/**
 * ClassificationSpecific values: whether a value is one the wire knows, and which an image's bytes
 * are. Generic classes and file names are src/core/classify/languages.ts's.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { CLASSIFICATION_SPECIFIC_VALUES } from './classificationValues.ts';

const known = new Set(CLASSIFICATION_SPECIFIC_VALUES);

export function isKnownSpecific(value: string): value is ClassificationSpecific {
  return known.has(value);
}

/** Recognises common image formats by their magic numbers. */
export function imageTypeOf(bytes: Uint8Array): ClassificationSpecific | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png' as ClassificationSpecific;
  if (starts(0xff, 0xd8, 0xff)) return 'jpg' as ClassificationSpecific;
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif' as ClassificationSpecific;
  if (starts(0x42, 0x4d)) return 'bmp' as ClassificationSpecific;
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
    return 'webp' as ClassificationSpecific;
  }
  return undefined;
}
