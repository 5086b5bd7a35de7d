/**
 * The status bar item for secrets: how many saved snippets hold one and how many of those sync with their
 * secret (by the user's choice); hidden while none does. Click lists them. The counts are the host's
 * (GET /satchel/secrets/summary), read again when the library changes; without an answer, the Assets
 * view's own records (their `sensitives`) are counted.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { AssetsView } from '../views/assetsView.ts';
import type { ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';
import { assetSecrets } from './snippetSecrets.ts';
import { secretsStatusText, type SecretCounts } from './statusText.ts';

/** A library changing fast (an import) is counted again at most this often. */
const SETTLE_MS = 300;

export class SecretsStatus extends Owner {
  private readonly item: vscode.StatusBarItem;
  private readonly assets: AssetsView;
  private readonly server: ServerController;
  private readonly log: Log;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();
  private current: SecretCounts = { flagged: 0, syncedWithSecret: 0 };

  constructor(assets: AssetsView, server: ServerController, log: Log) {
    super();
    this.assets = assets;
    this.server = server;
    this.log = log;
    this.item = this._register(vscode.window.createStatusBarItem('satchel.secrets', vscode.StatusBarAlignment.Right, 99));
    this.item.name = 'Satchel Secrets';
    this.item.command = 'satchel.secrets.list';
    this._register(assets.onDidChangeAssets(() => this.schedule()));
    this._register(server.onDidChangeConnection(() => this.schedule()));
    this.schedule();
  }

  /** What the item says now (tests read it). */
  get counts(): SecretCounts {
    return this.current;
  }

  get text(): string | undefined {
    return this.current.flagged ? this.item.text : undefined;
  }

  /** Reads the counts again now (after the user changed a snippet's sync choice); resolves once shown. */
  update(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.reading = this.reading.then(() => this.read());
    return this.reading;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.update(), SETTLE_MS);
  }

  private async read(): Promise<void> {
    const client = this.server.connection?.client;
    let counts: SecretCounts | undefined;
    try {
      const summary = await client?.secrets.summary();
      if (summary) counts = { flagged: summary.flaggedSnippets, syncedWithSecret: summary.syncingWithSecrets };
    } catch (error) {
      this.log.warn(`The secrets summary could not be read: ${(error as Error).message}`);
    }
    // Without the host's answer, what the view holds (it holds only what it shows, so this is a floor).
    counts ??= { flagged: this.assets.assets.filter((asset) => assetSecrets(asset).length > 0).length, syncedWithSecret: undefined };
    if (this._isDisposed) return;
    this.current = counts;
    const status = secretsStatusText(counts);
    if (!status) {
      this.item.hide();
      return;
    }
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.show();
  }

  override dispose(): void {
    clearTimeout(this.timer);
    super.dispose();
  }
}
