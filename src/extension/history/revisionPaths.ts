/**
 * Where a revision's text lives in the read-only `satchel-revision:` documents, apart from VS Code
 * (a path, not a Uri):
 *
 *   /<asset id>/<revision id>/<name>.<ext>   one revision's content, as it was
 *   /<asset id>/current/<name>.<ext>         the asset's content now (follows later changes)
 *
 * The file name only gives VS Code the language and the tab its name; the ids are the key.
 */
import { parseSnippetLocation, SNIPPET_SCHEME } from '../editing/snippetPaths.ts';

export const REVISION_SCHEME = 'satchel-revision';

/** The revision segment of the asset's current content. */
export const CURRENT = 'current';

export interface RevisionPath {
  readonly asset: string;
  /** A revision id, or CURRENT. */
  readonly revision: string;
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

/** A document's Uri, apart from VS Code. */
export interface DocumentLocation {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
}

/**
 * The snippet a document of Satchel's shows: the authority of its editable `satchel:` documents
 * (code and description, see editing/snippetPaths.ts), the first path segment of a `satchel-revision:` one.
 */
export function assetOfDocument({ scheme, authority, path }: DocumentLocation): string | undefined {
  if (scheme === REVISION_SCHEME) return parseRevisionPath(path)?.asset;
  if (scheme !== SNIPPET_SCHEME) return undefined;
  const snippet = parseSnippetLocation({ authority, path });
  return snippet && snippet.kind !== 'root' ? snippet.id : undefined;
}
