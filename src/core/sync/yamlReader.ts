/**
 * YAML read with js-yaml (docs/sync.md says why): the vault's own front matter, hand edits of it,
 * and the front matter other tools write (massCode 5's, which js-yaml itself dumps). YAML 1.2's
 * core schema: a time stays the string it was written as, `yes` stays a string, no `!!binary` or
 * merge keys. Bounded here rather than trusted to the document: nesting at most js-yaml's 100
 * levels, aliases never expand the result past the size of the text (a "billion laughs" document
 * is refused in linear time), a key appearing twice is an error, and `__proto__` is a key like any
 * other (js-yaml defines it as an own property; so does the copy below).
 */
import { CORE_SCHEMA, FAILSAFE_SCHEMA, load, YAMLException } from 'js-yaml';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

/**
 * A document with every scalar as text: what a field that is a string in the record reads. A plain
 * scalar the core schema takes for a number or a boolean is the text as written (`12345678901234567890`,
 * `1e3`, `0x10`, `true`, never 12345678901234567000, 1000, 16 or true); null (`null`, `~`, nothing)
 * stays null, no value, which is what every writer means by it (a name "null" is dumped quoted).
 */
export type YamlText = string | null | YamlText[] | { [key: string]: YamlText };

/** The text is not YAML, or not YAML this reader accepts; the message names the line. */
export class YamlError extends Error {}

/** Parses one YAML document; an empty one is null. Throws YamlError, never anything else. */
export function parseYaml(source: string): YamlValue {
  let value: unknown;
  try {
    value = load(source, { schema: CORE_SCHEMA });
  } catch (error) {
    // Its typings promise a mark on every YAMLException; some (two documents in one) come without.
    const line: unknown = error instanceof YAMLException ? error.mark?.line : undefined;
    if (error instanceof YAMLException) throw new YamlError(`${typeof line === 'number' ? `line ${line + 1}: ` : ''}${error.reason}`);
    // Anything else js-yaml throws (a stack overflow) is the input's fault too.
    throw new YamlError(error instanceof Error ? error.message : String(error));
  }
  return new Copy(source.length).of(value);
}

/**
 * The document by the core schema (as parseYaml) and, beside it, with every scalar as written
 * (YamlText): the same text read again by js-yaml's failsafe schema, which keeps each scalar the
 * string it spells, when the core reading holds a number or a boolean (a document of strings, as
 * Satchel's vault writes most records, is its own texts). Both readings are linear and bounded
 * alike; a document the failsafe schema refuses (an explicit `!!int` tag) has its texts spelled
 * from the core reading instead.
 */
export function parseYamlTexts(source: string): { readonly value: YamlValue; readonly texts: YamlText } {
  const value = parseYaml(source);
  if (!spellsOtherThanText(value)) return { value, texts: textsOf(value, undefined) };
  let written: YamlValue | undefined;
  try {
    written = new Copy(source.length).of(load(source, { schema: FAILSAFE_SCHEMA }));
  } catch {
    written = undefined;
  }
  return { value, texts: textsOf(value, written) };
}

function spellsOtherThanText(value: YamlValue): boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return true;
  if (value === null || typeof value === 'string') return false;
  return Array.isArray(value) ? value.some(spellsOtherThanText) : Object.values(value).some(spellsOtherThanText);
}

/** `value`'s shape with each scalar as `written` spells it (a failsafe reading is all strings and nulls). */
function textsOf(value: YamlValue, written: YamlValue | undefined): YamlText {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item, index) => textsOf(item, Array.isArray(written) ? written[index] : undefined));
  if (typeof value === 'object') {
    const spelled = written !== null && typeof written === 'object' && !Array.isArray(written) ? written : undefined;
    // Own properties only, so a `__proto__` key is data here too.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, textsOf(item, spelled !== undefined && Object.hasOwn(spelled, key) ? spelled[key] : undefined)]));
  }
  return typeof written === 'string' ? written : String(value);
}

/**
 * The parsed value as YamlValue, checked rather than cast. An alias is the same object at each
 * place it is used, so js-yaml's result stays as small as the text; copying it out expands every
 * alias, which is why the copy counts what it makes and stops where the text could not have said it.
 */
class Copy {
  private left: number;

  constructor(sourceLength: number) {
    // Every value the text spells takes at least one character of it.
    this.left = sourceLength + 1;
  }

  of(value: unknown): YamlValue {
    if (--this.left < 0) throw new YamlError('aliases expand the document beyond its own size');
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
    if (Array.isArray(value)) return value.map((item: unknown) => this.of(item));
    // Object.fromEntries defines each key as an own property: `__proto__` stays data.
    if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.of(item)]));
    throw new YamlError(`a value of type ${typeof value} is not read`);
  }
}
