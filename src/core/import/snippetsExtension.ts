/**
 * The library of the VS Code extension "Snippets" (tahabasri.snippets) as its Export Snippets
 * command writes it, or its `data.json` when it keeps snippets in a file: one tree,
 * `{ id: 1, parentId: -1, label: "snippets", lastId, children: [...] }`, where a folder is
 * `{ label, folder: true, children }` and a snippet `{ label, value, prefix?, description?,
 * language?: ".py", resolveSyntax? }`. The names of the folders above a snippet become its tags
 * (as massCode's do; the top 32), its prefix a tag and its prefix; `resolveSyntax` says the value is VS Code
 * snippet syntax, without it the value is inserted as it is.
 */
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { specificFromFileName, specificFromLanguageName } from '../classify/languages.ts';
import { importedBody } from '../snippets/codeSnippets.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';

/** The extension's root: children, a label, and the root's own marks (`parentId: -1`, `lastId`). */
export function isSnippetsExtensionData(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && Array.isArray(value.children) && typeof value.label === 'string' && (value.parentId === -1 || typeof value.lastId === 'number');
}

/** Folders whose names a snippet takes as tags, from the top (as massCode's import follows 32). */
const MAX_FOLDER_TAGS = 32;

export function parseSnippetsExtension(file: string, root: Record<string, unknown>): ParsedFile {
  const collector = new SnippetCollector(file);
  // Walked with a stack: a tree nested deeper than a call stack goes still reads.
  const pending: Array<{ readonly node: unknown; readonly folders: readonly string[] }> = [...(root.children as unknown[])]
    .reverse()
    .map((node) => ({ node, folders: [] }));
  let position = 0;
  while (pending.length > 0) {
    const { node, folders } = pending.pop()!;
    position++;
    const label = isRecord(node) ? stringOr(node.label).trim() : '';
    const item = [...folders, label || `item ${position}`].join(' › ');
    if (!isRecord(node)) {
      collector.fail(item, 'not a snippet or folder object');
      continue;
    }
    if (node.folder === true) {
      const children = Array.isArray(node.children) ? node.children : [];
      // Past MAX_FOLDER_TAGS the path is shared, not copied: a tree deeper than any library costs linear time.
      const inside = label === '' || folders.length >= MAX_FOLDER_TAGS ? folders : [...folders, label];
      for (let i = children.length - 1; i >= 0; i--) pending.push({ node: children[i], folders: inside });
      continue;
    }
    if (typeof node.value !== 'string') {
      collector.fail(item, 'the snippet has no text value');
      continue;
    }
    const prefix = stringOr(node.prefix).trim();
    const { text, syntax } = node.resolveSyntax === true ? importedBody(node.value) : { text: node.value, syntax: false };
    collector.add(item, {
      name: label || `snippet ${position}`,
      text,
      language: languageOf(stringOr(node.language)),
      tags: prefix === '' ? folders : [...folders, prefix],
      description: stringOr(node.description),
      syntax,
      ...(prefix === '' ? {} : { prefixes: [prefix] }),
    });
  }
  return collector.result('snippets-extension');
}

/** The extension records a language by its first file extension (`.py`); a language id is read too. */
function languageOf(language: string): ClassificationSpecific | undefined {
  const trimmed = language.trim();
  if (trimmed === '') return undefined;
  return trimmed.startsWith('.') ? specificFromFileName(`snippet${trimmed}`) : specificFromLanguageName(trimmed);
}
