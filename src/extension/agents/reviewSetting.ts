/**
 * `satchel.agents.reviewWrites` on whichever host serves this window: the window that hosts
 * passes it when it starts (ServerController), and every window tells the host it connects to, so
 * a host started by the CLI or another window follows the user's setting too. Left at its default
 * the setting says nothing, and the host's own last choice (kept in its store) stands; a change of
 * the setting is always told.
 */
import type * as vscode from 'vscode';
import type { Connection, ServerController } from '../serverController.ts';
import type { Settings } from '../settings.ts';
import type { Log } from '../log.ts';

export class ReviewSettingSync implements vscode.Disposable {
  private readonly server: ServerController;
  private readonly settings: () => Settings;
  private readonly log: Log;
  private readonly listener: vscode.Disposable;

  constructor(server: ServerController, settings: () => Settings, log: Log) {
    this.server = server;
    this.settings = settings;
    this.log = log;
    this.listener = server.onDidChangeConnection((connection) => {
      const chosen = this.settings().agentReviewWrites;
      if (connection && chosen !== undefined) void this.tell(connection, chosen);
    });
  }

  /** The user changed the setting: the host follows at once (a reset to the default turns review off). */
  async changed(): Promise<void> {
    const connection = this.server.connection;
    if (connection) await this.tell(connection, this.settings().agentReviewWrites ?? false);
  }

  private async tell(connection: Connection, reviewing: boolean): Promise<void> {
    try {
      await connection.client.agentChanges.setReviewing(reviewing);
      this.log.info(`Agents' writes ${reviewing ? 'wait for your review' : 'count at once'} on ${connection.url}`);
    } catch (error) {
      this.log.warn(`Could not tell ${connection.url} whether agents' writes wait for review: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}
