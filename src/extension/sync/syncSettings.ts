/** The `satchel.sync.*` settings, read here and nowhere else. */
import type * as vscode from 'vscode';

export const SYNC_SECTION = 'satchel.sync';

export interface SyncSettings {
  /** The git repository to sync with; undefined when none is set. */
  readonly remote: string | undefined;
  /** Between syncs made on their own; 0 syncs only when asked (and on focus, when that is on). */
  readonly intervalMs: number;
  /** Sync when a VS Code window gains focus (at most once a minute). */
  readonly onFocus: boolean;
}

export function readSyncSettings(configuration: Pick<vscode.WorkspaceConfiguration, 'get'>): SyncSettings {
  const remote = String(configuration.get<string>(`${SYNC_SECTION}.remote`, '') ?? '').trim();
  const minutes = Number(configuration.get<number>(`${SYNC_SECTION}.intervalMinutes`, 10));
  return {
    remote: remote === '' ? undefined : remote,
    intervalMs: Number.isFinite(minutes) && minutes > 0 ? Math.max(1, minutes) * 60_000 : 0,
    onFocus: configuration.get<boolean>(`${SYNC_SECTION}.onFocus`, true) !== false,
  };
}
