/**
 * How a headless host started by a window tells it why it ended before serving: its exit code.
 * The window reads nothing else of the process (its output goes to a log file it may outlive).
 */
import { SqliteUnavailableError, StoreUnusableError } from '../core/errors.ts';

/** `--no-wait` and another process holds the data directory's host lock. */
export const EXIT_SERVED_ELSEWHERE = 75;
/** This runtime has no node:sqlite (also the bundle's own check, esbuild.mjs). */
export const EXIT_NO_SQLITE = 76;
/** The store cannot be opened or created (permissions, a full disk, a damaged file). */
export const EXIT_STORE_UNUSABLE = 77;

/** The exit code a start-up failure ends the host with. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof SqliteUnavailableError) return EXIT_NO_SQLITE;
  if (error instanceof StoreUnusableError) return EXIT_STORE_UNUSABLE;
  return 1;
}

/** The error a window reports for a host that ended with `code` before serving (`detail`: its log's last lines). */
export function errorOfExit(code: number | null, signal: string | null, detail: string): Error {
  const said = detail.trim() === '' ? '' : ` ${detail.trim()}`;
  if (code === EXIT_NO_SQLITE) return new SqliteUnavailableError(`The Node that runs the Satchel host has no node:sqlite.${said}`);
  if (code === EXIT_STORE_UNUSABLE) return new StoreUnusableError(`The Satchel host could not open its store.${said}`);
  return new Error(`The Satchel host ended before serving (${signal ?? `exit code ${code}`}).${said}`);
}
