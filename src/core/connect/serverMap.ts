/**
 * The one view of an agent's config file that connecting needs: the servers it lists (a map or a
 * list, in JSON, YAML or TOML) as plain values by key, what else the file holds, and edits that
 * change only the entries named. Each format keeps its own text: comments and layout survive.
 */
import { InvalidInputError } from '../errors.ts';

export interface ServerMap {
  /** The servers' entries as plain values, by the key (or name) the agent knows them by. */
  entries(): ReadonlyMap<string, unknown>;
  /** Everything else in the file as a plain value: what no edit of Satchel's may change. */
  rest(): unknown;
  /** Adds or replaces the entry `key`. */
  set(key: string, value: unknown): void;
  /** Removes the entry `key` (nothing when it is absent). */
  delete(key: string): void;
  /** The file's text now. */
  text(): string;
}

/** Reads a config file's text; throws ConfigFileError when it cannot be understood. */
export type ServerMapReader = (text: string, file: string) => ServerMap;

/** A config file Satchel will not edit: malformed, or shaped other than its agent expects. Nothing was written. */
export class ConfigFileError extends InvalidInputError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}. Nothing was changed; fix the file (or move it away) and try again.`);
    this.file = file;
  }
}

/** A plain object (not an array, not null), as parsers of JSON, YAML and TOML give one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `value` without the member at `path` (a copy; `value` is left as it is). */
export function without(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || !isRecord(value)) return value;
  const [first, ...others] = path as [string, ...string[]];
  if (!(first in value)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (others.length === 0) delete copy[first];
  else copy[first] = without(copy[first], others);
  return copy;
}

/** The member at `path`, or undefined. */
export function memberAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!isRecord(at)) return undefined;
    at = at[key];
  }
  return at;
}
