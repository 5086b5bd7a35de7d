/**
 * Connecting and disconnecting as pure functions of a config file's text: the new text, what it
 * replaced, and the Pieces entries found. Every result is read back with the same parser and
 * checked to differ from the old file only in the entries named, so a file that cannot be edited
 * in place is refused, never damaged.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AgentTarget, McpEndpoint } from './agentTargets.ts';
import { isPiecesEntry } from './piecesEntries.ts';
import { ConfigFileError } from './serverMap.ts';

/** Satchel's MCP endpoint (e.g. http://127.0.0.1:39300/mcp) and its stdio bridge. */
export interface ConnectOptions extends McpEndpoint {
  /** Remove the agent's Pieces entries while adding Satchel's. */
  readonly replacePieces?: boolean | undefined;
}

export interface ConfigChange {
  readonly file: string;
  /** The file's text before; undefined when it does not exist. */
  readonly before: string | undefined;
  readonly after: string;
  readonly changed: boolean;
  /** Satchel's entry as it was, when there was one. */
  readonly previous: unknown;
  /** The keys of the agent's entries for Pieces OS (removed when replacePieces was asked). */
  readonly pieces: readonly string[];
  readonly piecesReplaced: boolean;
}

/** What an agent's file holds of Satchel and Pieces now. */
export interface ConfigState {
  readonly satchel: unknown;
  readonly pieces: readonly string[];
}

export function inspectConfig(agent: AgentTarget, file: string, text: string | undefined): ConfigState {
  const entries = agent.reader(withoutBom(text ?? ''), file).entries();
  return { satchel: entries.get(agent.key), pieces: piecesKeys(entries, agent.key) };
}

export function planConnect(agent: AgentTarget, file: string, before: string | undefined, options: ConnectOptions): ConfigChange {
  const map = agent.reader(withoutBom(before ?? ''), file);
  const entries = map.entries();
  const pieces = piecesKeys(entries, agent.key);
  const replace = options.replacePieces === true && pieces.length > 0;
  const entry = agent.entry(options);
  const previous = entries.get(agent.key);
  if (isDeepStrictEqual(previous, entry) && !replace) {
    return { file, before, after: before ?? '', changed: false, previous, pieces, piecesReplaced: false };
  }
  const rest = map.rest();
  const expected = new Map(entries);
  if (replace) for (const key of pieces) {
    map.delete(key);
    expected.delete(key);
  }
  map.set(agent.key, entry);
  expected.set(agent.key, entry);
  const after = bomOf(before) + checked(agent, file, map.text(), rest, expected);
  return { file, before, after, changed: after !== (before ?? ''), previous, pieces, piecesReplaced: replace };
}

/** Removes only Satchel's entry; a file without one is left as it is. */
export function planDisconnect(agent: AgentTarget, file: string, before: string | undefined): ConfigChange {
  const map = agent.reader(withoutBom(before ?? ''), file);
  const entries = map.entries();
  const previous = entries.get(agent.key);
  const pieces = piecesKeys(entries, agent.key);
  if (before === undefined || previous === undefined) {
    return { file, before, after: before ?? '', changed: false, previous, pieces, piecesReplaced: false };
  }
  const rest = map.rest();
  const expected = new Map(entries);
  map.delete(agent.key);
  expected.delete(agent.key);
  const after = bomOf(before) + checked(agent, file, map.text(), rest, expected);
  return { file, before, after, changed: after !== before, previous, pieces, piecesReplaced: false };
}

/** A byte-order mark (Windows editors write one) is set aside for parsing and put back on writing. */
const BOM = '\uFEFF';

function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

function bomOf(text: string | undefined): string {
  return text?.startsWith(BOM) ? BOM : '';
}

function piecesKeys(entries: ReadonlyMap<string, unknown>, satchelKey: string): string[] {
  return [...entries].filter(([key, value]) => key !== satchelKey && isPiecesEntry(value)).map(([key]) => key);
}

/** The edited text, once read back it holds exactly `expected` and the rest of the file unchanged. */
function checked(agent: AgentTarget, file: string, after: string, rest: unknown, expected: ReadonlyMap<string, unknown>): string {
  let same = false;
  try {
    const reread = agent.reader(after, file);
    same = isDeepStrictEqual(reread.rest(), rest) && isDeepStrictEqual(new Map(reread.entries()), new Map(expected));
  } catch (error) {
    // The edit made the file unreadable (a table defined twice): the old file is what the user has.
    if (!(error instanceof ConfigFileError)) throw error;
  }
  if (!same) {
    throw new ConfigFileError(file, `its ${agent.format} is written in a way Satchel cannot edit in place (e.g. an inline table)`);
  }
  return after;
}
