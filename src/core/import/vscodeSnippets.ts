/**
 * VS Code user snippets: `*.code-snippets` (languages in each snippet's `scope`) and per-language
 * files (`typescript.json`: the language is the file's name). Each entry is
 * `{ prefix: string | string[], body: string | string[], description?, scope? }`; prefixes become
 * tags and are kept as the snippet's prefixes, the description the asset's description, array
 * bodies are joined with newlines. A body with tab stops, placeholders, choices or variables is
 * kept as snippet syntax; one without is plain code, its escapes (`\$`) undone.
 */
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { specificFromLanguageName } from '../classify/languages.ts';
import { importedBody } from '../snippets/codeSnippets.ts';

export function isVscodeSnippets(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const entries = Object.values(value);
  return entries.length === 0 || entries.some((entry) => isRecord(entry) && 'body' in entry);
}

export function parseVscodeSnippets(file: string, value: Record<string, unknown>): ParsedFile {
  const collector = new SnippetCollector(file);
  const base = (file.split(/[\\/]/).pop() ?? file).replace(/\.(code-snippets|json)$/i, '');
  // Per-language files are named for the language id; a .code-snippets file is named by the user.
  const fileLanguage = /\.code-snippets$/i.test(file) ? undefined : specificFromLanguageName(base);
  for (const [name, entry] of Object.entries(value)) {
    if (!isRecord(entry)) {
      collector.fail(name, 'not a snippet (an object with a body)');
      continue;
    }
    const body = textOf(entry.body);
    if (body === undefined) {
      collector.fail(name, 'the body is neither a string nor an array of strings');
      continue;
    }
    const prefixes = (Array.isArray(entry.prefix) ? entry.prefix.filter((p): p is string => typeof p === 'string') : [stringOr(entry.prefix)]).filter((p) => p.trim() !== '');
    const scopes = stringOr(entry.scope).split(',');
    const language = scopes.map((scope) => specificFromLanguageName(scope)).find((found) => found !== undefined) ?? fileLanguage;
    const { text, syntax } = importedBody(body);
    collector.add(name, { name, text, language, tags: prefixes, description: stringOr(entry.description), syntax, prefixes });
  }
  return collector.result('vscode');
}

function textOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (Array.isArray(body) && body.every((line) => typeof line === 'string')) return body.join('\n');
  return undefined;
}
