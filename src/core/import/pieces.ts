/**
 * A Pieces library. Pieces documents no library export file, so the export taken is what any
 * Pieces OS client can save: the Assets snapshot of GET /assets (`{ iterable: Asset[] }`, the
 * shape of @pieces.app/pieces-os-client's Assets), a bare array of Assets, or one Asset. Each asset
 * keeps its name, its original format's text and language, its tags and its description annotation.
 */
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { specificFromLanguageName } from '../classify/languages.ts';
import { isKnownSpecific } from '../assets/specifics.ts';

function isAsset(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.formats) && Array.isArray(value.formats.iterable);
}

export function isPiecesExport(value: unknown): boolean {
  if (isRecord(value) && Array.isArray(value.iterable)) return value.iterable.length === 0 || value.iterable.some(isAsset);
  return isAsset(value) || (Array.isArray(value) && value.length > 0 && value.every(isAsset));
}

export function parsePieces(file: string, value: unknown): ParsedFile {
  const collector = new SnippetCollector(file);
  const assets: unknown[] = isRecord(value) && Array.isArray(value.iterable) ? value.iterable : Array.isArray(value) ? value : [value];
  assets.forEach((asset, index) => {
    const item = isRecord(asset) && typeof asset.name === 'string' && asset.name !== '' ? asset.name : `asset ${index + 1}`;
    if (!isAsset(asset)) return collector.fail(item, 'not an Asset (no formats)');
    const formats = (asset.formats as { iterable: unknown[] }).iterable.filter(isRecord);
    const originalId = isRecord(asset.original) ? stringOr(asset.original.id) || (isRecord(asset.original.reference) ? stringOr(asset.original.reference.id) : '') : '';
    const original = formats.find((format) => format.id === originalId) ?? formats.find((format) => textOf(format) !== undefined) ?? formats[0];
    const text = original ? textOf(original) : undefined;
    if (text === undefined) return collector.fail(item, 'its original format carries no text (binary or content left out: save GET /assets with transferables=true)');
    const given = original && isRecord(original.classification) ? stringOr(original.classification.specific) : '';
    collector.add(item, {
      name: stringOr(asset.name),
      text,
      // A value Pieces stored stays as it is (`hpp` stays `hpp`); other names are looked up.
      language: isKnownSpecific(given) ? given : specificFromLanguageName(given),
      tags: labelTexts(asset.tags, 'text'),
      description: labelTexts(asset.annotations, 'text', (annotation) => annotation.type === 'DESCRIPTION')[0],
    });
  });
  return collector.result('pieces');
}

/** The text of a Format's fragment or file string (raw, or the first of its other renderings). */
function textOf(format: Record<string, unknown>): string | undefined {
  for (const part of [format.fragment, format.file]) {
    if (!isRecord(part) || !isRecord(part.string)) continue;
    for (const key of ['raw', 'base64', 'dataUrl', 'data_url']) {
      const value = part.string[key];
      if (typeof value !== 'string') continue;
      if (key === 'raw') return value;
      // Non-raw renderings are base64 (a data URL after its comma).
      const payload = value.slice(value.indexOf(',') + 1);
      return Buffer.from(payload, 'base64').toString('utf8');
    }
  }
  return undefined;
}

function labelTexts(collection: unknown, key: string, keep: (item: Record<string, unknown>) => boolean = () => true): string[] {
  if (!isRecord(collection) || !Array.isArray(collection.iterable)) return [];
  return collection.iterable.flatMap((item) => (isRecord(item) && keep(item) && typeof item[key] === 'string' ? [item[key] as string] : []));
}
