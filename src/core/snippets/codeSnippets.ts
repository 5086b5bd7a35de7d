/**
 * VS Code `.code-snippets` files written from saved snippets, so that importing the file back
 * (import/vscodeSnippets.ts) gives the same snippets: text, name, language (as `scope`), prefixes,
 * snippet syntax and description. Plain code is written escaped (VS Code then inserts it as it
 * is), and the import reads a body with no snippet feature back as plain code.
 */
import { languageOf } from '../classify/languages.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { escapeSnippetText, hasSnippetFeatures, literalText } from './snippetSyntax.ts';

export interface ExportableSnippet {
  readonly name: string;
  readonly text: string;
  readonly language: string;
  readonly syntax: boolean;
  readonly prefixes: readonly string[];
  readonly description?: string;
}

interface CodeSnippetEntry {
  prefix?: string | string[];
  body: string | string[];
  description?: string;
  scope?: string;
}

/** The file's text: one entry per snippet, named by the snippet (repeated names numbered). */
export function codeSnippetsFile(snippets: readonly ExportableSnippet[]): string {
  const entries: Record<string, CodeSnippetEntry> = {};
  for (const snippet of snippets) {
    const body = snippet.syntax ? snippet.text : escapeSnippetText(snippet.text);
    const entry: CodeSnippetEntry = {
      ...(snippet.prefixes.length === 1 ? { prefix: snippet.prefixes[0]! } : snippet.prefixes.length > 1 ? { prefix: [...snippet.prefixes] } : {}),
      // Lines as VS Code writes them; a text with carriage returns stays one string, so it comes back unchanged.
      body: body.includes('\r') ? body : body.split('\n'),
      ...(snippet.description ? { description: snippet.description } : {}),
    };
    const scope = scopeOf(snippet.language);
    if (scope !== undefined) entry.scope = scope;
    entries[uniqueName(entries, snippet.name.trim() || 'Untitled')] = entry;
  }
  return JSON.stringify(entries, null, '\t') + '\n';
}

/** The VS Code language id of a stored language (`plaintext` for text); none for an unknown one (every language). */
function scopeOf(language: string): string | undefined {
  if (language === 'txt' || language === 'text') return 'plaintext';
  return languageOf(language as ClassificationSpecific)?.vscodeId;
}

function uniqueName(taken: Record<string, unknown>, name: string): string {
  if (!Object.hasOwn(taken, name)) return name;
  for (let n = 2; ; n++) if (!Object.hasOwn(taken, `${name} (${n})`)) return `${name} (${n})`;
}

/**
 * What an imported VS Code snippet body is: snippet syntax when it uses a tab stop, placeholder,
 * choice or variable; otherwise plain code, its escapes undone (it inserts exactly that text).
 */
export function importedBody(body: string): { readonly text: string; readonly syntax: boolean } {
  return hasSnippetFeatures(body) ? { text: body, syntax: true } : { text: literalText(body), syntax: false };
}
