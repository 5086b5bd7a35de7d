/**
 * JetBrains live templates (IntelliJ IDEA, PyCharm, WebStorm, GoLand…): a group's file from the
 * IDE's `templates` folder, or from the settings it exports, `<templateSet group="…">` of
 * `<template name="abbreviation" value="…" description="…">` with its `<variable>`s and the
 * `<context>` options it is on for. The abbreviation becomes the snippet's prefix and a tag, the
 * group a tag (not JetBrains' default group `user`), the first language among the contexts the
 * snippet's language. The value's `$VARIABLE$`s become VS Code tab stops in the order the template
 * declares them (the same variable the same stop, so VS Code fills it in once), with the variable's
 * default as the placeholder; `$END$` → `$0`, `$SELECTION$` → `$TM_SELECTED_TEXT`, `$$` → `$`.
 * Read by saxes: strict XML, entities limited to XML's own, linear in the file.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { escapeSnippetText, SNIPPET_DATE, SNIPPET_TIME } from '../snippets/snippetSyntax.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { ImportFormatError, SnippetCollector, type ParsedFile } from './types.ts';

interface Variable {
  readonly name: string;
  readonly expression: string;
  readonly defaultValue: string;
  readonly alwaysStopAt: boolean;
}

interface Template {
  readonly attributes: Readonly<Record<string, string>>;
  readonly variables: Variable[];
  readonly contexts: string[];
}

/** Whether a file's text is XML whose root is a template set (what a JetBrains templates folder holds). */
export function isJetbrainsTemplates(text: string): boolean {
  const root = rootElementAt(text);
  return root !== undefined && /^<templateSet[\s>/]/.test(text.slice(root, root + 13));
}

/**
 * Where the root element of an XML document starts: past its declaration, comments, processing
 * instructions and doctype (internal subset included), however long they are; undefined when the
 * text is not XML. Each step searches forward from the last, so the scan is linear.
 */
function rootElementAt(text: string): number | undefined {
  let at = 0;
  for (;;) {
    // `\s` takes a byte-order mark too.
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text[at] !== '<') return undefined;
    const skip = text.startsWith('<?', at) ? '?>' : text.startsWith('<!--', at) ? '-->' : text.startsWith('<!', at) ? doctypeEnd(text, at) : undefined;
    if (skip === undefined) return at;
    const end = text.indexOf(skip, at + 2);
    if (end < 0) return undefined;
    at = end + skip.length;
  }
}

/** What ends the doctype at `at`: `]>` when it has an internal subset (whose declarations hold `>`), else `>`. */
function doctypeEnd(text: string, at: number): string {
  // Looked for up to the first `>` only (its own scan, as far as the next step's), so many
  // declarations in a row cost no more than the text.
  for (let k = at; k < text.length && text[k] !== '>'; k++) if (text[k] === '[') return ']>';
  return '>';
}

export function parseJetbrains(file: string, text: string): ParsedFile {
  const collector = new SnippetCollector(file);
  let group = '';
  let current: Template | undefined;
  let inContext = false;
  const parser = new SaxesParser();
  parser.on('error', (error) => {
    throw new ImportFormatError(file, `not well-formed XML (${error.message})`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const attributes = tag.attributes;
    if (tag.name === 'templateSet') group = attributes['group'] ?? '';
    else if (tag.name === 'template') current = { attributes, variables: [], contexts: [] };
    else if (tag.name === 'variable' && current !== undefined) {
      current.variables.push({
        name: attributes['name'] ?? '',
        expression: attributes['expression'] ?? '',
        defaultValue: attributes['defaultValue'] ?? '',
        alwaysStopAt: attributes['alwaysStopAt'] !== 'false',
      });
    } else if (tag.name === 'context') inContext = true;
    else if (tag.name === 'option' && inContext && current !== undefined && attributes['value'] === 'true' && attributes['name']) {
      current.contexts.push(attributes['name']);
    }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (tag.name === 'context') inContext = false;
    else if (tag.name === 'template' && current !== undefined) {
      addTemplate(collector, group, current);
      current = undefined;
    }
  });
  parser.write(text).close();
  return collector.result('jetbrains');
}

function addTemplate(collector: SnippetCollector, group: string, template: Template): void {
  const abbreviation = (template.attributes['name'] ?? '').trim();
  const description = (template.attributes['description'] ?? '').trim();
  const name = description || abbreviation || 'template';
  const item = abbreviation || name;
  const value = template.attributes['value'];
  if (value === undefined) return collector.fail(item, 'the template has no value');
  const { text, syntax } = jetbrainsBody(value, template.variables);
  const groupTag = group.trim() === '' || group === 'user' ? [] : [group.trim()];
  const prefixes = abbreviation === '' ? [] : [abbreviation];
  collector.add(item, { name, text, language: languageOfContexts(template.contexts), tags: [...groupTag, ...prefixes], syntax, prefixes });
}

/** `$NAME$` (a variable), `$$` (a dollar). */
const variableToken = /\$([A-Za-z_][A-Za-z0-9_]*)?\$/g;

/** JetBrains expressions VS Code has a variable for. */
const vscodeVariables: Readonly<Record<string, string>> = {
  'clipboard()': '$CLIPBOARD',
  'className()': '$TM_FILENAME_BASE',
  'fileNameWithoutExtension()': '$TM_FILENAME_BASE',
  'fileName()': '$TM_FILENAME',
  'date()': SNIPPET_DATE,
  'time()': SNIPPET_TIME,
  'lineNumber()': '$TM_LINE_NUMBER',
};

/** A JetBrains string literal's text (`"main"` → main), or undefined for any other expression. */
function literal(expression: string): string | undefined {
  const match = /^\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(expression);
  return match === null ? undefined : match[1]!.replace(/\\(.)/g, '$1');
}

/** The VS Code snippet syntax of a template's value, or its plain text when it uses no variable. */
export function jetbrainsBody(value: string, variables: readonly Variable[]): { readonly text: string; readonly syntax: boolean } {
  const used = new Set<string>();
  for (const match of value.matchAll(variableToken)) if (match[1] !== undefined) used.add(match[1]);
  if (used.size === 0) return { text: value.replaceAll('$$', '$'), syntax: false };
  const declared = new Map(variables.map((variable) => [variable.name, variable]));
  // Tab stops in the order the template declares its variables, then the undeclared ones as they come.
  const order = [...variables.map((variable) => variable.name).filter((name) => used.has(name)), ...[...used].filter((name) => !declared.has(name))];
  const stops = new Map<string, number>();
  for (const name of order) if (name !== 'END' && name !== 'SELECTION' && !stops.has(name)) stops.set(name, stops.size + 1);
  let body = '';
  let last = 0;
  for (const match of value.matchAll(variableToken)) {
    body += escapeSnippetText(value.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[1];
    body += name === undefined ? '\\$' : snippetOfVariable(name, declared.get(name), stops.get(name));
  }
  return { text: body + escapeSnippetText(value.slice(last)), syntax: true };
}

function snippetOfVariable(name: string, variable: Variable | undefined, stop: number | undefined): string {
  if (name === 'END') return '$0';
  if (name === 'SELECTION') return '$TM_SELECTED_TEXT';
  const text = variable === undefined ? undefined : (literal(variable.defaultValue) ?? literal(variable.expression));
  const vscode = variable === undefined ? undefined : (vscodeVariables[variable.expression.trim()] ?? vscodeVariables[variable.defaultValue.trim()]);
  const shown = text !== undefined ? escapeSnippetText(text) : vscode;
  // A variable the template fills in without stopping there is its value, when it has one.
  if (variable !== undefined && !variable.alwaysStopAt && shown !== undefined) return shown;
  return `\${${stop}:${shown ?? name}}`;
}

/** Context names (`JAVA_STATEMENT`, `KOTLIN_EXPRESSION`, `TypeScript`, `Python_Class`…) → language, the first known. */
const contextLanguages: ReadonlyArray<readonly [RegExp, ClassificationSpecific]> = [
  [/^(java_script|js_|jsx|javascript)/i, 'js'],
  [/^(typescript|ts_|tsx)/i, 'ts'],
  [/^java/i, 'java'],
  [/^kotlin/i, 'kt'],
  [/^(python|py_)/i, 'py'],
  [/^go($|_)/i, 'go'],
  [/^php/i, 'php'],
  [/^rust/i, 'rs'],
  [/^ruby/i, 'rb'],
  [/^(html|xhtml)/i, 'html'],
  [/^(css|scss|less)/i, 'css'],
  [/^sql/i, 'sql'],
  [/^shell/i, 'sh'],
  [/^(oc|cpp|c)($|_)/i, 'cpp'],
  [/^scala/i, 'scala'],
  [/^groovy/i, 'groovy'],
  [/^markdown/i, 'md'],
  [/^yaml/i, 'yaml'],
  [/^json/i, 'json'],
  [/^xml/i, 'xml'],
  [/^dart/i, 'dart'],
  [/^(csharp|c#)/i, 'cs'],
  [/^swift/i, 'swift'],
  [/^lua/i, 'lua'],
];

function languageOfContexts(contexts: readonly string[]): ClassificationSpecific | undefined {
  for (const context of contexts) {
    const found = contextLanguages.find(([pattern]) => pattern.test(context));
    if (found !== undefined) return found[1];
  }
  return undefined;
}
