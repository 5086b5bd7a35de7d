/**
 * The stored asset document, and its formats as the wire shows them (the whole Asset, with what
 * is linked to it, is assetRendering.ts's). Formats are stored inside their
 * asset without the required `asset` back-reference (a FlattenedAsset), which is derived on read so
 * it never goes stale; `transferables=false` strips content on read too.
 */
import type { Asset, FlattenedAsset, FlattenedFormat, Format, Formats } from '../piecesTypes.ts';

export type StoredFormat = Omit<Format, 'asset'>;

export type StoredAsset = Omit<Asset, 'formats' | 'tags' | 'websites' | 'summaries' | 'activities' | 'conversations'> & {
  formats: { iterable: StoredFormat[] };
};

export function flattened(asset: StoredAsset): FlattenedAsset {
  const out: FlattenedAsset = {
    id: asset.id,
    creator: asset.creator,
    created: asset.created,
    updated: asset.updated,
    formats: { iterable: asset.formats.iterable.map((format) => ({ id: format.id })) },
    preview: { base: asset.preview.base.id },
    original: asset.original.id,
    mechanism: asset.mechanism,
  };
  if (asset.name !== undefined) out.name = asset.name;
  if (asset.pseudo !== undefined) out.pseudo = asset.pseudo;
  return out;
}

interface Transferables {
  fragment?: { string?: unknown; bytes?: unknown };
  file?: { string?: unknown; bytes?: unknown };
}

/** Content-free copy of a (seeded) format: the `transferables=false` view. */
export function withoutContent<T extends Transferables>(format: T): T {
  const copy: T = { ...format };
  if (format.fragment) {
    const { string: _s, bytes: _b, ...rest } = format.fragment;
    copy.fragment = rest;
  }
  if (format.file) {
    const { string: _s, bytes: _b, ...rest } = format.file;
    copy.file = rest;
  }
  return copy;
}

export function renderFormat(format: StoredFormat, asset: StoredAsset, transferables: boolean): Format {
  const shown = transferables ? format : withoutContent(format);
  return { ...shown, asset: flattened(asset) };
}

/**
 * `original` and `preview.base` as real clients read them: the id and the referenced format itself
 * (a FlattenedFormat, whose `asset` is the asset's id). The Pieces CLI and Python SDK read a
 * snippet's text and language from `original.reference` with no fallback.
 */
export function referencedFormat(asset: StoredAsset, id: string, transferables: boolean): { id: string; reference?: FlattenedFormat } {
  const format = asset.formats.iterable.find((candidate) => candidate.id === id);
  if (!format) return { id };
  const shown = transferables ? format : withoutContent(format);
  return { id, reference: { ...shown, asset: asset.id } };
}

export function renderFormats(asset: StoredAsset, transferables: boolean): Formats {
  return { iterable: asset.formats.iterable.map((format) => renderFormat(format, asset, transferables)) };
}

export function bytesOf(size: number): Format['bytes'] {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return { value: size, readable: `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}` };
}
