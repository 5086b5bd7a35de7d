/**
 * Where a snippet lives in the `satchel:` file system, apart from VS Code (the parts of a Uri):
 *
 *   satchel://<id>/<name>.<ext>                               its code; the extension gives VS Code the language
 *   satchel://<id>/description/<name>.description.md          its description, as Markdown beside the code
 *
 * The id is the key, kept in the authority so the breadcrumbs and the tab show only the snippet's
 * name; the name in a path is only what is shown, so a Uri keeps working after the snippet is
 * renamed elsewhere. Paths differ in their number of segments, so a snippet named like a
 * description file is still its code.
 */
import { fileNameFor } from '../languageNames.ts';
import { specificFromFileName } from '../../core/classify/languages.ts';

export const SNIPPET_SCHEME = 'satchel';

/** What a document of a snippet holds. */
export type SnippetPart = 'content' | 'description';

/** A snippet's document as the authority and path of a `satchel:` Uri. */
export interface SnippetLocation {
  readonly authority: string;
  readonly path: string;
}

export type SnippetPath =
  | { readonly kind: 'root' }
  | { readonly kind: 'folder'; readonly id: string; readonly part?: 'description' }
  | { readonly kind: 'file'; readonly id: string; readonly part: SnippetPart; readonly fileName: string };

const DESCRIPTION_FOLDER = 'description';
const DESCRIPTION_SUFFIX = '.description.md';

export function contentLocation(id: string, name: string, language: string | undefined): SnippetLocation {
  return { authority: id, path: `/${fileNameFor(name, language)}` };
}

export function descriptionLocation(id: string, name: string): SnippetLocation {
  return { authority: id, path: `/${DESCRIPTION_FOLDER}/${descriptionFileName(name)}` };
}

export function descriptionFileName(name: string): string {
  return `${fileNameFor(name, 'txt').replace(/\.txt$/, '')}${DESCRIPTION_SUFFIX}`;
}

export function parseSnippetLocation({ authority, path }: SnippetLocation): SnippetPath | undefined {
  const segments = path.split('/').filter(Boolean);
  if (!authority) return segments.length === 0 ? { kind: 'root' } : undefined;
  const id = authority;
  if (segments.length === 0) return { kind: 'folder', id };
  if (segments.length === 1) {
    return segments[0] === DESCRIPTION_FOLDER ? { kind: 'folder', id, part: 'description' } : { kind: 'file', id, part: 'content', fileName: segments[0]! };
  }
  if (segments.length === 2 && segments[0] === DESCRIPTION_FOLDER) return { kind: 'file', id, part: 'description', fileName: segments[1]! };
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
