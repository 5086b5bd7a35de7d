/**
 * Every Satchel setting is read here and nowhere else, so the keys, their defaults and their
 * translation into core options live in one place.
 */
import type * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from '../core/dataDir.ts';
import { DEFAULT_KEEP, MAX_KEEP } from '../core/backups/backupFiles.ts';
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from '../core/trash/trashService.ts';

export const SECTION = 'satchel';

export type ConnectorMode = 'off' | 'quiet' | 'notify';

export interface Settings {
  /** undefined = the first free port of the Pieces range. */
  readonly port: number | undefined;
  readonly dataDir: string;
  readonly connectorMode: ConnectorMode;
  readonly connectorMinLength: number;
  /** Similarity (0–1) from which a copy is suggested as a reuse of a saved asset. */
  readonly connectorReuseThreshold: number;
  readonly idleUnloadMs: number;
  /** A mirror the model catalog downloads from instead of its own URLs. */
  readonly catalogBaseUrl: string | undefined;
  /** Saved snippets offered by IntelliSense. */
  readonly completionEnabled: boolean;
  /** '' completes the word being typed; otherwise only what is typed right after this prefix (`sat:`). */
  readonly completionTriggerPrefix: string;
  /** Copies kept of each kind of backup (0: no automatic ones). */
  readonly keepBackups: number;
  /** Host names the server answers besides loopback ones (e.g. host.docker.internal). */
  readonly allowedHosts: readonly string[];
  /** Warn when Satchel runs on a remote machine with an empty library there. */
  readonly warnOnRemoteHost: boolean;
  /** The git remote the library syncs with (`satchel.sync.remote`), if one is set. */
  readonly syncRemote: string | undefined;
  /**
   * Agents' writes wait under Agent changes until the user accepts them. undefined when the user
   * never set it: the host's own last choice (kept in its store, perhaps made with the CLI) stands.
   */
  readonly agentReviewWrites: boolean | undefined;
  /** Days deleted assets and conversations stay in the trash (0: until it is emptied). */
  readonly trashRetentionDays: number;
  /** The data host leaves after this many minutes with no window or tool connected. */
  readonly hostIdleMinutes: number;
}

/** How long the data host stays once no window uses it (a window opened meanwhile finds it running). */
export const DEFAULT_HOST_IDLE_MINUTES = 10;

export const AGENT_REVIEW_KEY = `${SECTION}.agents.reviewWrites`;

/** Keys whose change needs the server restarted (the others apply at once). */
export const SERVER_KEYS = ['port', 'dataDirectory', 'server.allowedHosts', 'connector.minLength', 'connector.reuseThreshold', 'models.idleUnloadMinutes', 'models.catalogBaseUrl', 'backups.keep', 'trash.retentionDays', 'host.idleMinutes'].map((key) => `${SECTION}.${key}`);

/** What settings are read through; `inspect` tells a value the user set from the default. */
export type Configuration = Pick<vscode.WorkspaceConfiguration, 'get'> & Partial<Pick<vscode.WorkspaceConfiguration, 'inspect'>>;

export function readSettings(configuration: Configuration, env: NodeJS.ProcessEnv = process.env): Settings {
  const port = configuration.get<number>('port', 0);
  const dataDirectory = configuration.get<string>('dataDirectory', '').trim();
  const mode = configuration.get<string>('connector.mode', 'quiet');
  return {
    port: Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined,
    dataDir: dataDirectory ? expandHome(dataDirectory) : defaultDataDir(env),
    connectorMode: mode === 'off' || mode === 'notify' ? mode : 'quiet',
    connectorMinLength: Math.max(1, configuration.get<number>('connector.minLength', 12)),
    connectorReuseThreshold: Math.min(1, Math.max(0.1, configuration.get<number>('connector.reuseThreshold', 0.5))),
    idleUnloadMs: Math.max(0, configuration.get<number>('models.idleUnloadMinutes', 15)) * 60_000,
    catalogBaseUrl: configuration.get<string>('models.catalogBaseUrl', '').trim() || undefined,
    completionEnabled: configuration.get<boolean>('completion.enabled', true) !== false,
    // A prefix cannot hold white space: the query after it is one word.
    completionTriggerPrefix: String(configuration.get<string>('completion.triggerPrefix', '') ?? '').replace(/\s+/g, ''),
    keepBackups: Math.min(MAX_KEEP, Math.max(0, Math.round(configuration.get<number>('backups.keep', DEFAULT_KEEP)))),
    allowedHosts: stringList(configuration.get<unknown>('server.allowedHosts', [])),
    warnOnRemoteHost: configuration.get<boolean>('remote.warnOnRemoteHost', true) !== false,
    syncRemote: String(configuration.get<string>('sync.remote', '') ?? '').trim() || undefined,
    agentReviewWrites: userSet(configuration, 'agents.reviewWrites') ? configuration.get<boolean>('agents.reviewWrites', false) === true : undefined,
    trashRetentionDays: Math.min(MAX_RETENTION_DAYS, Math.max(0, Math.round(configuration.get<number>('trash.retentionDays', DEFAULT_RETENTION_DAYS)))),
    hostIdleMinutes: Math.max(0, Number(configuration.get<number>('host.idleMinutes', DEFAULT_HOST_IDLE_MINUTES)) || 0),
  };
}

/** The non-blank strings of a list setting (the server refuses any that is not a host name). */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim()) : [];
}

/** Whether the user set the key anywhere (user, workspace or folder settings), not just left its default. */
function userSet(configuration: Configuration, key: string): boolean {
  const found = configuration.inspect?.(key);
  return found !== undefined && [found.globalValue, found.workspaceValue, found.workspaceFolderValue].some((value) => value !== undefined);
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
