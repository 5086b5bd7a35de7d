/**
 * Where a revision's text lives in the read-only `satchel-revision:` documents, apart from VS Code
 * (a path, not a Uri):
 *
 *   /<asset id>/<revision id>/<name>.<ext>   one revision's content, as it was
 *   /<asset id>/current/<name>.<ext>         the asset's content now (follows later changes)
 *
 * The file name only gives VS Code the language and the tab its name; the ids are the key.
 */
import { fileNameFor } from '../languages.ts';

export const REVISION_SCHEME = 'satchel-revision';

/** The revision segment of the asset's current content. */
export const CURRENT = 'current';

export interface RevisionPath {
  readonly asset: string;
  /** A revision id, or CURRENT. */
  readonly revision: string;
}

export function revisionPath(asset: string, revision: string, name: string, language: string | undefined): string {
  return `/${encodeURIComponent(asset)}/${encodeURIComponent(revision)}/${fileNameFor(name || 'Untitled', language)}`;
}

export function parseRevisionPath(path: string): RevisionPath | undefined {
  const segments = path.split('/').filter(Boolean);
  if (segments.length !== 3) return undefined;
  try {
    const asset = decodeURIComponent(segments[0]!);
    const revision = decodeURIComponent(segments[1]!);
    return asset && revision ? { asset, revision } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The snippet a document of Satchel's shows: the first path segment of its `satchel:` (editable),
 * `satchel-asset:` (preview) or `satchel-revision:` documents is the asset's id.
 */
export function assetOfDocument(scheme: string, path: string): string | undefined {
  if (scheme === REVISION_SCHEME) return parseRevisionPath(path)?.asset;
  if (scheme !== 'satchel' && scheme !== 'satchel-asset') return undefined;
  const first = path.split('/').filter(Boolean)[0];
  if (!first) return undefined;
  try {
    return decodeURIComponent(first);
  } catch {
    return undefined;
  }
}
