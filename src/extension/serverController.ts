/**
 * Runs this window's part in serving the data directory (hosting/hostSupervisor.ts: the data host is
 * its own process, which the lead window starts) and turns its role into a Connection: a client of
 * that host, plus the connector application it registered as. The UI only ever sees the
 * Connection, so a restarted host just swaps it.
 */
import * as vscode from 'vscode';
import type { Application } from '../core/piecesTypes.ts';
import { SatchelClient } from '../client/satchelClient.ts';
import type { Hosting, Role, StartHosting } from '../hosting/hosting.ts';
import type { Settings } from './settings.ts';
import type { Log } from './log.ts';
import { Owner } from '../core/lifecycle.ts';
import { authorOf } from '../core/history/authors.ts';

/** Who the extension's writes are by, in every snippet's history. */
const EXTENSION_AUTHOR = authorOf('vscode', 'Satchel for VS Code');

export interface Connection {
  readonly client: SatchelClient;
  readonly role: 'host' | 'client';
  readonly url: string;
  readonly port: number;
}

export class ServerController extends Owner {
  private readonly log: Log;
  private readonly readSettings: () => Settings;
  private readonly version: string;
  private readonly startHosting: StartHosting;
  private election: Hosting | undefined;
  /** The data directory of the current election. */
  private electionDir: string | undefined;
  private current: Connection | undefined;
  private applicationPromise: Promise<Application> | undefined;
  private readonly _onDidChangeConnection = this._register(new vscode.EventEmitter<Connection | undefined>());
  /** Fires with the new connection (undefined while there is none). */
  readonly onDidChangeConnection = this._onDidChangeConnection.event;
  private readonly _onDidChangeRole = this._register(new vscode.EventEmitter<Role>());
  readonly onDidChangeRole = this._onDidChangeRole.event;
  role: Role = { kind: 'starting' };

  constructor(log: Log, readSettings: () => Settings, version: string, startHosting: StartHosting) {
    super();
    this.log = log;
    this.startHosting = startHosting;
    this.readSettings = readSettings;
    this.version = version;
  }

  get connection(): Connection | undefined {
    return this.current;
  }

  get dataDir(): string | undefined {
    return this.election ? this.electionDir : undefined;
  }

  /**
   * Starts the data host again with this window's settings, then reconnects. Only a host a window
   * started is stopped, and only by the lead window (every window hears a settings change) or on
   * the user's command; a host started outside VS Code is left alone.
   */
  async restart(byUser = false): Promise<Role> {
    const election = this.election;
    if (election && (byUser || this.role.kind === 'host') && this.electionDir === this.readSettings().dataDir) {
      if (await election.stopHost()) this.log.info('Stopped the Satchel host to start it with the current settings.');
      else if (byUser) this.log.info('The Satchel host was not started by VS Code (`satchel` on the command line?): restart it where it runs; reconnecting.');
    }
    return this.start();
  }

  /** Starts (or restarts) the election; resolves with the first role. Never throws: failures are the `failed` role. */
  async start(): Promise<Role> {
    await this.stop();
    const settings = this.readSettings();
    this.log.info(`Data directory ${settings.dataDir}; port ${settings.port ?? '39300–39333'}`);
    const election = this.startHosting({
      dataDir: settings.dataDir,
      logger: this.log,
      ...(settings.port !== undefined ? { port: settings.port } : {}),
      connectorMinLength: settings.connectorMinLength,
      connectorReuseThreshold: settings.connectorReuseThreshold,
      modelIdleUnloadMs: settings.idleUnloadMs,
      ...(settings.catalogBaseUrl ? { catalogBaseUrl: settings.catalogBaseUrl } : {}),
      keepBackups: settings.keepBackups,
      ...(settings.allowedHosts.length > 0 ? { allowedHosts: settings.allowedHosts } : {}),
      // Set by the user: the host starts with it. Left at its default: the store's last choice stands.
      ...(settings.agentReviewWrites !== undefined ? { reviewAgentWrites: settings.agentReviewWrites } : {}),
      trashRetentionDays: settings.trashRetentionDays,
      idleMinutes: settings.hostIdleMinutes,
    });
    this.election = election;
    this.electionDir = settings.dataDir;
    election.onDidChangeRole((role) => this.onRole(role));
    return election.start();
  }

  async stop(): Promise<void> {
    const election = this.election;
    this.election = undefined;
    this.setConnection(undefined);
    await election?.close();
  }

  /** The application this window registered as through `/connect` (once per connection). */
  application(): Promise<Application> {
    const connection = this.current;
    if (!connection) return Promise.reject(new Error('Satchel is not connected to a server yet.'));
    this.applicationPromise ??= connection.client.connector
      .connect({ name: 'VS_CODE', version: this.version, platform: platformName() })
      .then((context) => context.application);
    this.applicationPromise.catch(() => (this.applicationPromise = undefined));
    return this.applicationPromise;
  }

  private onRole(role: Role): void {
    this.role = role;
    switch (role.kind) {
      case 'host':
      case 'client':
        this.log.info(`${role.kind === 'host' ? 'Hosting' : 'Client of'} ${role.url}`);
        if (this.current?.url !== role.url || this.current.role !== role.kind) {
          this.setConnection({ client: new SatchelClient(role.url, { author: EXTENSION_AUTHOR }), role: role.kind, url: role.url, port: role.port });
        }
        break;
      case 'waiting':
        this.log.info('Another process holds the data directory; waiting for its server or to take over.');
        this.setConnection(undefined);
        break;
      case 'failed':
        this.log.error('The Satchel server could not start', role.error);
        this.setConnection(undefined);
        break;
    }
    this._onDidChangeRole.fire(role);
  }

  private setConnection(next: Connection | undefined): void {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    this.applicationPromise = undefined;
    void vscode.commands.executeCommand('setContext', 'satchel.ready', next !== undefined);
    this._onDidChangeConnection.fire(next);
    previous?.client.dispose();
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }
}

function platformName(): string {
  return process.platform === 'win32' ? 'WINDOWS' : process.platform === 'darwin' ? 'MACOS' : 'LINUX';
}
