/**
 * The recorded library (test/fixtures/piecesOs/library.ts) laid out as Pieces' export tool writes
 * its archive (format 5, EXPORT_LAYOUT.md in pieces-app/export-tool): manifest.json, and one JSON
 * file per record under raw/<material>/ (preserve mode), named by a hash of its type and id. The
 * assets name their formats, tags, websites, annotations and anchors by id only, each in a file of
 * its own, as the tool's records do.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedLibrary } from './piecesOsServer.ts';

/** Writes the recorded library as the export tool lays it out (preserve mode: raw/). */
export function writePiecesArchive(dir: string): void {
  const library = recordedLibrary();
  const write = (material: string, type: string, record: { readonly id: string; readonly [key: string]: unknown }): void => {
    const folder = join(dir, 'raw', material);
    mkdirSync(folder, { recursive: true });
    const key = createHash('sha256').update(`${type}\u0000${record.id}`).digest('hex');
    writeFileSync(join(folder, `${key}.json`), `${JSON.stringify(record, null, 2)}\n`);
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ format_version: 5, tool_version: '0.20.0-dev', mode: 'preserve', status: 'complete', os_version: '12.3.1', coverage: [], issues: [] }, null, 2));
  writeFileSync(join(dir, 'index.md'), '# Pieces export\n');
  for (const asset of library.assets) {
    for (const format of asset.formats.iterable) write('formats', 'FORMATS', format);
    // The archive's asset names its related records by id; each has a file of its own.
    write('assets', 'ASSETS', {
      ...asset,
      formats: { iterable: asset.formats.iterable.map((format) => ({ id: format.id })) },
      original: { id: asset.original.id },
      tags: { iterable: (asset.tags?.iterable ?? []).map((tag) => ({ id: tag.id })) },
      websites: { iterable: (asset.websites?.iterable ?? []).map((site) => ({ id: site.id })) },
      annotations: { iterable: (asset.annotations?.iterable ?? []).map((annotation) => ({ id: annotation.id })) },
      anchors: { iterable: (asset.anchors?.iterable ?? []).map((anchor) => ({ id: anchor.id })) },
    });
  }
  for (const tag of library.tags) write('tags', 'TAGS', tag);
  for (const site of library.websites) write('websites', 'WEBSITES', site);
  for (const annotation of library.annotations) write('annotations', 'ANNOTATIONS', annotation);
  for (const anchor of library.anchors) write('anchors', 'ANCHORS', anchor);
  for (const point of library.anchorPoints) write('anchor_points', 'ANCHOR_POINTS', point);
  for (const conversation of library.conversations) write('conversations', 'CONVERSATIONS', conversation);
  for (const message of library.messages) write('messages', 'CONVERSATION_MESSAGES', message);
}

