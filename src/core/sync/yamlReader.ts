/**
 * YAML read with js-yaml (docs/sync.md says why): the vault's own front matter, hand edits of it,
 * and the front matter other tools write (massCode 5's, which js-yaml itself dumps). YAML 1.2's
 * core schema: a time stays the string it was written as, `yes` stays a string, no `!!binary` or
 * merge keys. Bounded here rather than trusted to the document: nesting at most js-yaml's 100
 * levels, aliases never expand the result past the size of the text (a "billion laughs" document
 * is refused in linear time), a key appearing twice is an error, and `__proto__` is a key like any
 * other (js-yaml defines it as an own property; so does the copy below).
 */
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

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
