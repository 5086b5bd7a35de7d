/**
 * The status bar item for secrets: how many saved snippets hold one and how many of those sync with their
 * secret (by the user's choice); hidden while none does. Click lists them. Counted from the Assets view's
 * records, which carry what the host found (`Asset.sensitives`).
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { AssetsView } from '../views/assetsView.ts';
import { assetSecrets } from './snippetSecrets.ts';
import { secretsStatusText, type SecretCounts } from './statusText.ts';

/** A library changing fast (an import) is counted again at most this often. */
const SETTLE_MS = 300;

export class SecretsStatus extends Owner {
  private readonly item: vscode.StatusBarItem;
  private readonly assets: AssetsView;
  private timer: NodeJS.Timeout | undefined;
  private current: SecretCounts = { flagged: 0, syncedWithSecret: 0 };

  constructor(assets: AssetsView) {
    super();
    this.assets = assets;
    this.item = this._register(vscode.window.createStatusBarItem('satchel.secrets', vscode.StatusBarAlignment.Right, 99));
    this.item.name = 'Satchel Secrets';
    this.item.command = 'satchel.secrets.list';
    this._register(assets.onDidChangeAssets(() => this.schedule()));
    this._register(assets.onDidChangeTreeData(() => this.schedule()));
    this.update();
  }

  /** What the item says now (tests read it). */
  get counts(): SecretCounts {
    return this.current;
  }

  get text(): string | undefined {
    return this.current.flagged ? this.item.text : undefined;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, SETTLE_MS);
  }

  private update(): void {
    let flagged = 0;
    let syncedWithSecret = 0;
    for (const asset of this.assets.assets) {
      if (!assetSecrets(asset).length) continue;
      flagged++;
      if (this.assets.syncsWithSecret(asset.id)) syncedWithSecret++;
    }
    this.current = { flagged, syncedWithSecret };
    const status = secretsStatusText(this.current);
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
