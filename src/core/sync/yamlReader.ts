/**
 * YAML read with the `yaml` package (eemeli/yaml, docs/sync.md says why): the vault's own front
 * matter, hand edits of it, and the front matter other tools write (massCode 5's, by js-yaml).
 * YAML 1.2's core schema, as js-yaml 4 reads it: a time stays the string it was written as, `yes`
 * stays a string. What the result may hold is bounded here rather than trusted to the document:
 * aliases expand to at most MAX_ALIAS_COUNT nodes (a "billion laughs" document is refused before
 * it grows), a key appearing twice is an error, and `__proto__` is a key like any other.
 */
import { parseDocument } from 'yaml';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

/** The text is not YAML, or not YAML this reader accepts; the message names the line. */
export class YamlError extends Error {}

/**
 * Alias expansions allowed in one document (yaml's own bound, which counts the nodes each alias
 * brings in): none of the files read here needs any, and a hand edit that uses an anchor or two
 * still reads.
 */
const MAX_ALIAS_COUNT = 100;

/** Parses one YAML document; an empty one is null. Throws YamlError, never anything else. */
export function parseYaml(source: string): YamlValue {
  let document;
  try {
    document = parseDocument(source, { schema: 'core', intAsBigInt: true, uniqueKeys: true, merge: false });
  } catch (error) {
    // The parser reports bad input as errors; anything it throws (a stack overflow on deep nesting) is the input's too.
    throw new YamlError(messageOf(error));
  }
  const problem = document.errors[0];
  // The message names the line and column (the first of its lines; the rest quotes the text).
  if (problem !== undefined) throw new YamlError(firstLine(problem.message));
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new YamlError(messageOf(error));
  }
  return plain(value);
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? firstLine(error.message) : String(error);
}

/**
 * The parsed value as YamlValue, checked rather than cast: the core schema makes only these, and
 * a mapping's keys become own properties (Object.fromEntries defines `__proto__` as plain data).
 * Recursion is as deep as the document, which toJS above has already walked as deep.
 */
function plain(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  // Integers come as bigint so that one past 2^53 (an id typed unquoted) keeps its digits as text.
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map((item: unknown) => plain(item));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  throw new YamlError(`a value of type ${typeof value} is not read`);
}
