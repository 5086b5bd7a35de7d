/**
 * massCode's storage (its `db.json`: `{ folders, snippets, tags }`). A snippet has fragments
 * (`content: [{ label, language, value }]`), a `folderId` and `tagsIds`; its folder's name (with
 * the names of the folders above it) and its tags' names become tags. Snippets in massCode's
 * trash (`isDeleted`) are left out.
 */
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { specificFromLanguageName } from '../classify/languages.ts';

export function isMassCodeDatabase(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && Array.isArray(value.snippets) && Array.isArray(value.folders);
}

/** Deepest folder chain followed (a loop of parentIds in a damaged file ends here). */
const MAX_FOLDER_DEPTH = 32;

export function parseMassCode(file: string, value: Record<string, unknown>): ParsedFile {
  const collector = new SnippetCollector(file);
  const folders = new Map<string, { name: string; parent: string | undefined }>();
  for (const folder of value.folders as unknown[]) {
    if (isRecord(folder) && typeof folder.id === 'string') {
      folders.set(folder.id, { name: stringOr(folder.name), parent: typeof folder.parentId === 'string' ? folder.parentId : undefined });
    }
  }
  const tagNames = new Map<string, string>();
  for (const tag of Array.isArray(value.tags) ? value.tags : []) {
    if (isRecord(tag) && typeof tag.id === 'string') tagNames.set(tag.id, stringOr(tag.name));
  }
  const folderTags = new Map<string, string[]>();
  const tagsOfFolder = (id: string | undefined): string[] => {
    if (id === undefined) return [];
    let known = folderTags.get(id);
    if (!known) {
      known = [];
      for (let at: string | undefined = id, depth = 0; at !== undefined && depth < MAX_FOLDER_DEPTH; depth++) {
        const folder = folders.get(at);
        if (!folder) break;
        known.push(folder.name);
        at = folder.parent;
      }
      folderTags.set(id, known);
    }
    return known;
  };

  (value.snippets as unknown[]).forEach((snippet, index) => {
    if (!isRecord(snippet)) return collector.fail(`snippet ${index + 1}`, 'not a snippet object');
    const name = stringOr(snippet.name) || `snippet ${index + 1}`;
    if (snippet.isDeleted === true) return;
    if (!Array.isArray(snippet.content)) return collector.fail(name, 'it has no content fragments');
    const tags = [
      ...tagsOfFolder(typeof snippet.folderId === 'string' ? snippet.folderId : undefined),
      ...(Array.isArray(snippet.tagsIds) ? snippet.tagsIds : []).flatMap((id) => (typeof id === 'string' && tagNames.has(id) ? [tagNames.get(id)!] : [])),
    ];
    const fragments = snippet.content;
    fragments.forEach((fragment, i) => {
      const label = isRecord(fragment) ? stringOr(fragment.label) : '';
      const item = fragments.length > 1 ? `${name} › ${label || `fragment ${i + 1}`}` : name;
      if (!isRecord(fragment) || typeof fragment.value !== 'string') return collector.fail(item, 'the fragment has no text value');
      collector.add(item, {
        name: item,
        text: fragment.value,
        language: specificFromLanguageName(stringOr(fragment.language)),
        tags,
        description: stringOr(snippet.description),
      });
    });
  });
  return collector.result('masscode');
}
