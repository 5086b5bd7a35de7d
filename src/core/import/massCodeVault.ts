/**
 * massCode's Markdown vault (massCode 5, the format it moved to after db.json and SQLite): the code
 * space is a folder (`<vault>/code/`) whose sub-folders are massCode's folders; each snippet is a
 * `.md` file with YAML front matter (name, description, tags as ids, isDeleted, times, and
 * `contents: [{ id, label, language }]`) and one `## Fragment: <label>` heading per fragment, each
 * followed by a fenced block (three or more backticks, the language after them). Tag names are in
 * `.masscode/state.json`; snippets without a folder are in `.masscode/inbox/`, deleted ones in
 * `.masscode/trash/` (left out, as `isDeleted` ones are). As with db.json, a snippet's folders and
 * tags become tags, and each fragment a snippet (named "snippet › fragment" when there are several).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { specificFromLanguageName } from '../classify/languages.ts';
import { readFrontMatter } from '../sync/frontMatter.ts';
import type { YamlValue } from '../sync/yamlReader.ts';
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';

const META_DIR = '.masscode';
const MAX_DEPTH = 32;

/** The code space folder of a massCode vault at (or directly above) `dir`, or undefined when it is none. */
export function massCodeVaultRoot(dir: string): string | undefined {
  for (const candidate of [join(dir, 'code'), dir]) {
    if (existsSync(join(candidate, META_DIR)) && statSync(join(candidate, META_DIR)).isDirectory()) return candidate;
  }
  return undefined;
}

/** Each folder of the vault holding snippets, read (when asked) into one parsed file. */
export function massCodeVaultParts(root: string): Array<{ readonly name: string; read(): ParsedFile }> {
  const tagNames = readTagNames(root);
  const folders: string[] = [];
  const walk = (dir: string, depth: number): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (entries.some((entry) => entry.isFile() && entry.name.endsWith('.md'))) folders.push(dir);
    for (const entry of entries) {
      if (!entry.isDirectory() || depth >= MAX_DEPTH) continue;
      // The trash is left out; the inbox (snippets in no folder) is read.
      if (entry.name === META_DIR) {
        const inbox = join(dir, META_DIR, 'inbox');
        if (depth === 0 && existsSync(inbox)) walk(inbox, depth + 1);
        continue;
      }
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(join(dir, entry.name), depth + 1);
    }
  };
  walk(root, 0);
  return folders.map((folder) => ({ name: folder, read: () => readFolder(root, folder, tagNames) }));
}

function readTagNames(root: string): Map<number, string> {
  const names = new Map<number, string>();
  try {
    const state: unknown = JSON.parse(readFileSync(join(root, META_DIR, 'state.json'), 'utf8'));
    const tags = isRecord(state) && Array.isArray(state.tags) ? state.tags : [];
    for (const tag of tags) if (isRecord(tag) && typeof tag.id === 'number') names.set(tag.id, stringOr(tag.name));
  } catch {
    // No state file (or a damaged one): the snippets are imported without their tags.
  }
  return names;
}

function readFolder(root: string, folder: string, tagNames: ReadonlyMap<number, string>): ParsedFile {
  const collector = new SnippetCollector(folder);
  const path = relative(root, folder);
  const folderTags = path === '' || path.startsWith(META_DIR) ? [] : path.split(sep).filter(Boolean);
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const fileName = entry.name.slice(0, -'.md'.length);
    let front;
    try {
      front = readFrontMatter(readFileSync(join(folder, entry.name), 'utf8'));
    } catch (error) {
      collector.fail(fileName, `its front matter is not YAML (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const data = front?.data ?? {};
    // Strings as written: a hand-edited `name: 12345678901234567890` or `description: 1e3` keeps its text.
    const written = front?.texts ?? {};
    if (data.isDeleted === 1 || data.isDeleted === true) continue;
    const name = typeof written.name === 'string' && written.name !== '' ? written.name : fileName;
    const tags = [...folderTags, ...numbers(data.tags).flatMap((id) => (tagNames.has(id) ? [tagNames.get(id)!] : []))];
    const description = typeof written.description === 'string' ? written.description : undefined;
    const fragments = fragmentsOf(front?.body ?? '');
    if (fragments.length === 0) {
      collector.fail(name, 'it has no fragments');
      continue;
    }
    for (const [index, fragment] of fragments.entries()) {
      const item = fragments.length > 1 ? `${name} › ${fragment.label || `fragment ${index + 1}`}` : name;
      collector.add(item, { name: item, text: fragment.value, language: specificFromLanguageName(fragment.language), tags, description });
    }
  }
  return collector.result('masscode');
}

function numbers(value: YamlValue | undefined): number[] {
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
}

interface Fragment {
  readonly label: string;
  readonly language: string;
  readonly value: string;
}

/**
 * The fragments of a snippet's body: a `## Fragment:` heading, then a fence of three or more
 * backticks with the language, the code, and the same fence closing it. A body with no heading is
 * one plain-text fragment (massCode reads a bare Markdown file so).
 */
export function fragmentsOf(body: string): Fragment[] {
  const lines = body.split(/\r?\n/);
  const fragments: Fragment[] = [];
  for (let at = 0; at < lines.length; at++) {
    // Prefix tests, not a `(.*)$` pattern: a label may hold U+2028 or U+0085, which `.` stops at.
    if (!lines[at]!.startsWith(HEADING)) continue;
    const fenceLine = lines[at + 1] ?? '';
    const fence = fenceLine.slice(0, fenceLine.length - fenceLine.replace(/^`+/, '').length);
    if (fence.length < 3) continue;
    const label = lines[at]!.slice(HEADING.length).trim() || 'Fragment';
    const value: string[] = [];
    at += 2;
    while (at < lines.length && lines[at]!.trim() !== fence) value.push(lines[at++]!);
    fragments.push({ label, language: fenceLine.slice(fence.length).trim() || 'plain_text', value: value.join('\n') });
  }
  if (fragments.length === 0 && body.trim() !== '') fragments.push({ label: 'Fragment 1', language: 'plain_text', value: body });
  return fragments;
}

const HEADING = '## Fragment:';
