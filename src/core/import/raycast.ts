/**
 * Raycast's snippets as its Export Snippets (and the Snippet Explorer's Download JSON) writes them:
 * an array of `{ name, text, keyword }`. The keyword is what expands the snippet in Raycast; it
 * becomes a tag and the snippet's prefix, so IntelliSense offers it under the same word (without
 * the marks around it: `!log` → `log`).
 *
 * Raycast's dynamic placeholders become VS Code snippet syntax, so a snippet keeps its tab stops:
 * `{cursor}` → `$0`, `{clipboard}` → `$CLIPBOARD`, `{selection}` → `$TM_SELECTED_TEXT`, `{uuid}`,
 * `{date}` / `{time}` / `{datetime}` / `{day}` → VS Code's date variables, and each
 * `{argument name="x" default="y" options="a,b"}` a tab stop (the same name the same stop, so VS Code
 * mirrors it). A placeholder VS Code has no equivalent for (a date `format`, `{clipboard offset=1}`,
 * a modifier such as `| uppercase`, `{snippet name=…}`) stays as written, as text. A snippet
 * without any placeholder is plain text.
 */
import { escapeSnippetText, SNIPPET_DATE, SNIPPET_TIME } from '../snippets/snippetSyntax.ts';
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';

/** An array of objects with Raycast's `text` and a `keyword` or `name`, none of them a VS Code snippet (`body`). */
export function isRaycastSnippets(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => isRecord(item) && typeof item.text === 'string' && (typeof item.keyword === 'string' || typeof item.name === 'string') && !('body' in item))
  );
}

export function parseRaycast(file: string, value: unknown[]): ParsedFile {
  const collector = new SnippetCollector(file);
  value.forEach((item, index) => {
    if (!isRecord(item) || typeof item.text !== 'string') return collector.fail(`snippet ${index + 1}`, 'not a Raycast snippet (an object with a text)');
    const keyword = completionWord(stringOr(item.keyword).trim());
    const name = stringOr(item.name).trim() || keyword || `snippet ${index + 1}`;
    const { text, syntax } = raycastBody(item.text);
    const prefixes = keyword === '' ? [] : [keyword];
    collector.add(name, { name, text, tags: prefixes, syntax, prefixes });
  });
  return collector.result('raycast');
}

/**
 * A keyword as an editor's completion reaches it: without the characters Raycast users put around
 * one so it never fires by accident (`!log`, `;sig`, `:date:`), which no editor counts as part of a
 * word. A keyword of such characters only is kept as it is.
 */
function completionWord(keyword: string): string {
  const word = keyword.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, '');
  return word === '' ? keyword : word;
}

/** `{name attr="value" …}`: a placeholder Raycast might expand; its attributes read apart (linear, no nesting). */
const placeholder = /\{(cursor|clipboard|selection|uuid|date|time|datetime|day|argument)(\s[^{}\n]*)?\}/g;
const attribute = /\s*([a-z]+)="([^"]*)"/y;

/** The VS Code snippet syntax of a Raycast text, or the text itself when it has no placeholder VS Code can take. */
export function raycastBody(text: string): { readonly text: string; readonly syntax: boolean } {
  const stops = new Map<string, number>();
  let next = 1;
  let body = '';
  let converted = false;
  let last = 0;
  for (const match of text.matchAll(placeholder)) {
    const attributes = attributesOf(match[2] ?? '');
    const replacement = attributes === undefined ? undefined : snippetOf(match[1]!, attributes, (name) => {
      const known = name === undefined ? undefined : stops.get(name);
      if (known !== undefined) return known;
      const stop = next++;
      if (name !== undefined) stops.set(name, stop);
      return stop;
    });
    body += escapeSnippetText(text.slice(last, match.index)) + (replacement ?? escapeSnippetText(match[0]));
    last = match.index + match[0].length;
    converted ||= replacement !== undefined;
  }
  return converted ? { text: body + escapeSnippetText(text.slice(last)), syntax: true } : { text, syntax: false };
}

/** `name="value"` pairs, or undefined when anything else is there (a modifier, an unquoted value). */
function attributesOf(source: string): Map<string, string> | undefined {
  const found = new Map<string, string>();
  attribute.lastIndex = 0;
  while (attribute.lastIndex < source.length) {
    const at = attribute.lastIndex;
    const match = attribute.exec(source);
    if (match === null) return source.slice(at).trim() === '' ? found : undefined;
    found.set(match[1]!, match[2]!);
  }
  return found;
}

/** A choice as VS Code reads one: `,` and `|` end it, `\` escapes them and itself. */
const choice = (value: string): string => value.replace(/[,|\\]/g, '\\$&');

function snippetOf(kind: string, attributes: ReadonlyMap<string, string>, stopFor: (name: string | undefined) => number): string | undefined {
  if (kind === 'argument') {
    const name = attributes.get('name');
    const stop = stopFor(name);
    const options = (attributes.get('options') ?? '').split(',').map((option) => option.trim()).filter((option) => option !== '');
    if (options.length > 0) return `\${${stop}|${options.map(choice).join(',')}|}`;
    const shown = attributes.get('default') ?? name;
    return shown ? `\${${stop}:${escapeSnippetText(shown)}}` : `$${stop}`;
  }
  // Other placeholders take no attributes VS Code can follow (`format`, `offset`): left as text.
  if (attributes.size > 0) return undefined;
  const simple: Readonly<Record<string, string>> = {
    cursor: '$0',
    clipboard: '$CLIPBOARD',
    selection: '$TM_SELECTED_TEXT',
    uuid: '$UUID',
    date: SNIPPET_DATE,
    time: SNIPPET_TIME,
    datetime: `${SNIPPET_DATE} ${SNIPPET_TIME}`,
    day: '$CURRENT_DAY_NAME',
  };
  return simple[kind];
}
