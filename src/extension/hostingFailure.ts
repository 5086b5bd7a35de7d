/**
 * What to tell the user when this window cannot run the Satchel server: what is wrong in their
 * terms and what they can do about it. Plain functions of the error (no vscode), so tests read them.
 */
import { SqliteUnavailableError, StoreUnusableError } from '../core/errors.ts';

export type HostingAction = 'Open Settings' | 'Show Log' | 'Retry';

export interface Explanation {
  readonly message: string;
  readonly actions: readonly HostingAction[];
}

/** For the `failed` role: nothing serves the data directory and this window cannot. */
export function explainHostingFailure(error: Error, dataDir: string): Explanation {
  if (error instanceof SqliteUnavailableError) {
    return {
      message:
        `Satchel cannot keep its data in this VS Code: ${error.message} ` +
        'Update VS Code to its latest release. Or run the Satchel server outside VS Code (`npm start` in a Satchel checkout, Node.js 22.13 or newer): ' +
        'this window connects to it as soon as it answers.',
      actions: ['Show Log', 'Retry'],
    };
  }
  if (error instanceof StoreUnusableError) {
    return {
      message:
        `Satchel cannot open its data in ${dataDir}: ${error.message} ` +
        'Fix the folder (permissions, free space) or choose another one in the "Satchel: Data Directory" setting, then Retry. ' +
        'If another Satchel serves this folder, this window connects to it.',
      actions: ['Open Settings', 'Show Log', 'Retry'],
    };
  }
  return {
    message: `Satchel could not start its server: ${error.message} The log has the details; Retry starts it again.`,
    actions: ['Show Log', 'Retry'],
  };
}

/** For a client that could not take over: it works now, but only while the other server runs. */
export function explainClientOnly(cannotHost: Error, url: string): string {
  const reason = cannotHost instanceof SqliteUnavailableError ? 'this VS Code has no SQLite (node:sqlite)' : cannotHost.message;
  return (
    `Satchel is using the server at ${url}. This window cannot run one itself (${reason}), ` +
    'so if that server stops, Satchel here waits until one runs again.'
  );
}
