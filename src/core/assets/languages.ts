/**
 * What a classification means: whether a ClassificationSpecificEnum value is known, which generic
 * class it belongs to, the value a file name implies, and whether bytes are an image.
 */
import type { Classification, ClassificationGeneric, ClassificationSpecific } from '../wire.ts';
import { CLASSIFICATION_SPECIFIC_VALUES } from './classificationValues.ts';

const known = new Set(CLASSIFICATION_SPECIFIC_VALUES);

export function isKnownSpecific(value: string): value is ClassificationSpecific {
  return known.has(value);
}

const imageTypes = new Set(['gif', 'ico', 'jpe', 'jpeg', 'jpg', 'jpgm', 'png', 'tif', 'tiff', 'webp', 'bmp', 'svgz', 'ai', 'eps']);
const videoTypes = new Set(['jpgv', 'mp4', 'ogv', 'qt', 'webm', 'mp2']);
const textTypes = new Set(['txt', 'text', 'log', 'md', 'mdown', 'mdwn', 'markdown', 'markdn', 'rtf', 'rtx', 'csv', 'list']);
const resourceTypes = new Set(['uri', 'uris', 'urls', 'uniform_resource_locator', 'custom_url_scheme', 'unix_file_path', 'windows_file_path', 'uniform_resource_identifier']);
const fileTypes = new Set([
  'doc', 'docm', 'docx', 'exe', 'mp2a', 'mp3', 'mp4a', 'oga', 'ogg', 'ogx', 'ppt', 'pptx', 'pptm', 'wav', 'weba',
  'xla', 'xlam', 'xlc', 'xlm', 'xls', 'xlsb', 'xlsm', 'xlsx', 'xlt', 'xltm', 'xltx', 'pdf', 'rpm', 'zip', 'woff',
  'woff2', 'bin', 'eot', 'gz', 'jar', 'mpkg', 'dmg', 'pyc', 'class', 'wasm',
]);

export function genericOf(specific: ClassificationSpecific): ClassificationGeneric {
  if (imageTypes.has(specific)) return 'IMAGE';
  if (videoTypes.has(specific)) return 'VIDEO';
  if (textTypes.has(specific)) return 'TEXT';
  if (resourceTypes.has(specific)) return 'EXTERNAL_RESOURCE_REFERENCE';
  if (fileTypes.has(specific)) return 'FILE';
  if (specific === 'UNKNOWN') return 'UNKNOWN';
  return 'CODE';
}

export function classificationOf(specific: ClassificationSpecific): Classification {
  return { generic: genericOf(specific), specific };
}

/** The specific value a file name implies (`main.py` → `py`, `Dockerfile` → `dockerfile`), if any. */
export function specificFromFileName(name: string | undefined): ClassificationSpecific | undefined {
  if (!name) return undefined;
  const base = name.split(/[\\/]/).pop() ?? name;
  if (isKnownSpecific(base)) return base;
  if (base.toLowerCase() === 'dockerfile') return 'dockerfile' as ClassificationSpecific;
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = base.slice(dot + 1);
  if (isKnownSpecific(ext)) return ext;
  const lower = ext.toLowerCase();
  return isKnownSpecific(lower) ? lower : undefined;
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
