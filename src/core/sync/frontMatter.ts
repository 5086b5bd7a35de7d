/**
 * Markdown with YAML front matter: the vault's metadata files (`snippet.md`), written here with a
 * fixed key order and every string JSON-quoted (a valid YAML double-quoted scalar), so one record
 * always makes the same bytes and a change shows as the one line it changed; read back, like any
 * front matter from outside, by the `yaml` package (yamlReader.ts).
 */
import { parseYamlTexts, YamlError, type YamlText, type YamlValue } from './yamlReader.ts';

/** A value of a front matter key as the vault writes it. */
export type FrontValue = string | boolean | number | readonly string[] | ReadonlyArray<Readonly<Record<string, string>>>;

/** `---`, the entries in the order given (undefined ones left out), `---`, then the body exactly. */
export function writeFrontMatter(entries: ReadonlyArray<readonly [string, FrontValue | undefined]>, body: string): string {
  let out = '---\n';
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (typeof value === 'string') out += `${key}: ${quote(value)}\n`;
    else if (typeof value === 'boolean' || typeof value === 'number') out += `${key}: ${String(value)}\n`;
    else if (value.length === 0) out += `${key}: []\n`;
    else {
      out += `${key}:\n`;
      for (const item of value) {
        if (typeof item === 'string') {
          out += `  - ${quote(item)}\n`;
          continue;
        }
        Object.entries(item).forEach(([field, text], index) => {
          out += `${index === 0 ? '  - ' : '    '}${field}: ${quote(text)}\n`;
        });
      }
    }
  }
  return `${out}---\n${body}`;
}

/** JSON's string syntax is YAML's double-quoted one; U+2028/2029 escaped as YAML readers split lines there. */
function quote(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface FrontMatter {
  readonly data: { readonly [key: string]: YamlValue };
  /**
   * The same mapping with every scalar as written (YamlText): what fields that are strings in the
   * record read, so a hand-written `name: 12345678901234567890` keeps its digits.
   */
  readonly texts: { readonly [key: string]: YamlText };
  readonly body: string;
}

/**
 * The front matter's mapping and the body after it, exactly as written; undefined when the text
 * does not open with `---`. Either fence may carry trailing blanks (`--- `, as editors and other
 * tools leave them). Throws YamlError when the front matter is not YAML or not a mapping.
 */
export function readFrontMatter(text: string): FrontMatter | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (!open) return undefined;
  for (let at = open[0].length; ; ) {
    const end = source.indexOf('\n', at);
    const line = source.slice(at, end < 0 ? source.length : end).replace(/\r$/, '');
    if (/^---[ \t]*$/.test(line)) {
      const { value: data, texts } = parseYamlTexts(source.slice(open[0].length, at));
      if (data !== null && (typeof data !== 'object' || Array.isArray(data))) throw new YamlError('the front matter is not a mapping');
      const mapping = texts !== null && typeof texts === 'object' && !Array.isArray(texts) ? texts : {};
      return { data: data ?? {}, texts: mapping, body: end < 0 ? '' : source.slice(end + 1) };
    }
    if (end < 0) throw new YamlError('the front matter has no closing ---');
    at = end + 1;
  }
}
