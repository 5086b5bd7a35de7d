/**
 * Where a snippet lives in the `satchel:` file system, apart from VS Code (a path, not a Uri):
 *
 *   /<id>/<name>.<ext>                            its code; the extension gives VS Code the language
 *   /<id>/description/<name>.description.md       its description, as Markdown beside the code
 *
 * The id is the key; the name in a path is only what the tab shows, so a path keeps working after
 * the snippet is renamed elsewhere. Paths differ in their number of segments, so a snippet named
 * like a description file is still its code.
 */
import { fileNameFor } from '../languages.ts';
import { specificFromFileName } from '../../core/classify/languages.ts';

export const SNIPPET_SCHEME = 'satchel';

/** What a document of a snippet holds. */
export type SnippetPart = 'content' | 'description';

export type SnippetPath =
  | { readonly kind: 'root' }
  | { readonly kind: 'folder'; readonly id: string; readonly part?: 'description' }
  | { readonly kind: 'file'; readonly id: string; readonly part: SnippetPart; readonly fileName: string };

const DESCRIPTION_FOLDER = 'description';
const DESCRIPTION_SUFFIX = '.description.md';

export function contentPath(id: string, name: string, language: string | undefined): string {
  return `/${encodeURIComponent(id)}/${fileNameFor(name, language)}`;
}

export function descriptionPath(id: string, name: string): string {
  return `/${encodeURIComponent(id)}/${DESCRIPTION_FOLDER}/${fileNameFor(name, 'txt').replace(/\.txt$/, '')}${DESCRIPTION_SUFFIX}`;
}

export function parseSnippetPath(path: string): SnippetPath | undefined {
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return { kind: 'root' };
  let id: string;
  try {
    id = decodeURIComponent(segments[0]!);
  } catch {
    return undefined;
  }
  if (segments.length === 1) return { kind: 'folder', id };
  if (segments.length === 2) return { kind: 'file', id, part: 'content', fileName: segments[1]! };
  if (segments[1] !== DESCRIPTION_FOLDER) return undefined;
  if (segments.length === 3) return { kind: 'file', id, part: 'description', fileName: segments[2]! };
  return undefined;
}

/**
 * What renaming a file from `from` to `to` asks of the snippet: its new name, and for its code a
 * new language when the extension changed to one that names another (`retry.ts` → `retry.py`).
 */
export function renameOf(part: SnippetPart, from: string, to: string): { name: string; language?: string } {
  if (part === 'description') {
    const name = to.endsWith(DESCRIPTION_SUFFIX) ? to.slice(0, -DESCRIPTION_SUFFIX.length) : to.replace(/\.md$/i, '');
    return { name: name.trim() };
  }
  const dot = to.lastIndexOf('.');
  if (dot <= 0) return { name: to.trim() };
  const name = to.slice(0, dot).trim();
  const language = specificFromFileName(to);
  return language === undefined || language === specificFromFileName(from) ? { name } : { name, language };
}
