/**
 * The copy connector. On a copy in an editor (the paste provider's `prepareDocumentPaste` hook, the
 * one place VS Code tells an extension about a copy) it asks the server's `suggest`: reuse → offer
 * the saved asset; save → offer to save; nothing → silence. Quiet mode never pops up: suggestions
 * collect under the Assets view's "Suggestions" node and the status bar flashes. Every answer is
 * sent back with `react`, so the server learns which suggestions are unwelcome.
 */
import * as vscode from 'vscode';
import type { Asset } from '../core/piecesTypes.ts';
import { snippetSeed, type ConnectorReaction, type ConnectorSeed } from '../client/connector.ts';
import { Owner } from '../core/lifecycle.ts';
import type { ServerController } from './serverController.ts';
import type { StatusBar } from './statusBar.ts';
import type { Log } from './log.ts';
import type { Settings } from './settings.ts';
import { reuseMatch, worthAsking } from './copyPolicy.ts';
import { fromVscodeLanguage } from './languageNames.ts';
import { SNIPPET_SCHEME } from './editing/snippetPaths.ts';
import { REVISION_SCHEME } from './history/revisionPaths.ts';
import { AGENT_CHANGE_SCHEME } from './views/agentChangeDiff.ts';
import { TEMPLATE_SCHEME } from './templatePreview.ts';

export interface PendingSuggestion {
  readonly id: number;
  readonly kind: 'reuse' | 'save';
  readonly text: string;
  readonly language: string | undefined;
  readonly seed: ConnectorSeed;
  /** For reuse: the saved asset that matches best. */
  readonly asset?: Asset;
  readonly created: number;
}

const MAX_PENDING = 20;

/**
 * Every document the user copies from, whatever its scheme: a file, an untitled buffer, and in a
 * remote window the workspace's `vscode-remote:` files (a glob alone matches every scheme; a
 * `file` selector never saw a copy in an SSH, WSL or container window).
 */
const COPY_SELECTOR: vscode.DocumentSelector = { pattern: '**' };
/** Satchel's own previews: copying a saved asset back out is not a new snippet to suggest. */
const OWN_SCHEMES: ReadonlySet<string> = new Set([SNIPPET_SCHEME, REVISION_SCHEME, AGENT_CHANGE_SCHEME, TEMPLATE_SCHEME]);

export class CopyConnector extends Owner implements vscode.DocumentPasteEditProvider {
  private readonly server: ServerController;
  private readonly statusBar: StatusBar;
  private readonly log: Log;
  private readonly settings: () => Settings;
  private readonly pending: PendingSuggestion[] = [];
  private nextId = 1;
  private readonly _onDidChangeSuggestions = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeSuggestions = this._onDidChangeSuggestions.event;
  /** Opens a saved asset (set by the extension: the preview document). */
  openAsset: (asset: Asset) => Promise<void> = async () => {};

  constructor(server: ServerController, statusBar: StatusBar, log: Log, settings: () => Settings) {
    super();
    this.server = server;
    this.statusBar = statusBar;
    this.log = log;
    this.settings = settings;
    this._register(
      vscode.languages.registerDocumentPasteEditProvider(COPY_SELECTOR, this, {
        providedPasteEditKinds: [],
        copyMimeTypes: ['application/vnd.satchel.copy'],
      }),
    );
  }

  /** Whether a copy in this document reaches the connector. */
  copiesFrom(document: vscode.TextDocument): boolean {
    return vscode.languages.match(COPY_SELECTOR, document) > 0 && !OWN_SCHEMES.has(document.uri.scheme);
  }

  get suggestions(): readonly PendingSuggestion[] {
    return this.pending;
  }

  prepareDocumentPaste(document: vscode.TextDocument, ranges: readonly vscode.Range[]): void {
    if (this.settings().connectorMode === 'off' || !this.copiesFrom(document)) return;
    const text = ranges.map((range) => document.getText(range)).join('\n');
    // The copy must not wait for the server.
    void this.handleCopy(text, document.languageId);
  }

  /** Asks the server about a copied snippet; returns the suggestion it produced, if any. */
  async handleCopy(text: string, languageId: string): Promise<PendingSuggestion | undefined> {
    const connection = this.server.connection;
    const settings = this.settings();
    const thresholds = { minLength: settings.connectorMinLength, reuseThreshold: settings.connectorReuseThreshold };
    if (!connection || settings.connectorMode === 'off' || !worthAsking(text, thresholds)) return undefined;
    const language = fromVscodeLanguage(languageId);
    try {
      const application = await this.server.application();
      const suggestion = await connection.client.connector.suggest(application.id, text, language);
      const seed = snippetSeed(text, language);
      const match = reuseMatch(suggestion, thresholds);
      let pending: PendingSuggestion | undefined;
      if (match) pending = { id: this.nextId++, kind: 'reuse', text, language, seed, asset: match, created: Date.now() };
      else if (suggestion.save?.suggested) pending = { id: this.nextId++, kind: 'save', text, language, seed, created: Date.now() };
      if (!pending) return undefined;
      this.log.info(`Copy suggestion: ${pending.kind}${pending.asset ? ` (${pending.asset.name ?? pending.asset.id})` : ''}`);
      if (settings.connectorMode === 'notify') void this.notify(pending);
      else {
        this.add(pending);
        this.statusBar.flash(pending.kind === 'reuse' ? 'you have this snippet saved' : 'save this snippet?');
      }
      return pending;
    } catch (error) {
      this.log.warn(`Copy suggestion failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  private add(pending: PendingSuggestion): void {
    this.pending.unshift(pending);
    this.pending.length = Math.min(this.pending.length, MAX_PENDING);
    this._onDidChangeSuggestions.fire();
  }

  private async notify(pending: PendingSuggestion): Promise<void> {
    if (pending.kind === 'reuse') {
      const name = pending.asset?.name ?? 'a saved snippet';
      const choice = await vscode.window.showInformationMessage(`You copied code you already saved: ${name}.`, 'Open', 'Dismiss');
      if (choice === 'Open') await this.reuse(pending);
      else if (choice === 'Dismiss') await this.dismiss(pending);
    } else {
      const choice = await vscode.window.showInformationMessage('Save the code you copied to Satchel?', 'Save', 'Dismiss');
      if (choice === 'Save') await this.save(pending);
      else if (choice === 'Dismiss') await this.dismiss(pending);
    }
  }

  /** Saves through `react`; returns the new asset's id. */
  async save(pending: PendingSuggestion): Promise<string> {
    const id = await this.react(pending, { save: true, seed: pending.seed });
    this.remove(pending);
    return id;
  }

  async reuse(pending: PendingSuggestion): Promise<void> {
    const asset = pending.asset;
    if (!asset) return;
    await this.react(pending, { save: false, seed: pending.seed, reuse: { asset: asset.id } });
    this.remove(pending);
    await this.openAsset(asset);
  }

  async dismiss(pending: PendingSuggestion): Promise<void> {
    await this.react(pending, { save: false, seed: pending.seed });
    this.remove(pending);
  }

  private async react(pending: PendingSuggestion, reaction: ConnectorReaction): Promise<string> {
    const connection = this.server.connection;
    if (!connection) throw new Error('Satchel is not connected to a server.');
    const application = await this.server.application();
    const answer = await connection.client.connector.react(application.id, reaction);
    this.log.info(`Reacted to a ${pending.kind} suggestion: ${reaction.save ? 'save' : reaction.reuse ? 'reuse' : 'dismiss'}`);
    return answer;
  }

  private remove(pending: PendingSuggestion): void {
    const index = this.pending.indexOf(pending);
    if (index >= 0) {
      this.pending.splice(index, 1);
      this._onDidChangeSuggestions.fire();
    }
  }

  /** Reports that a saved asset was inserted or copied (scores and activity on the server). */
  async track(assetId: string, use: 'inserted' | 'copied'): Promise<void> {
    const connection = this.server.connection;
    if (!connection) return;
    try {
      const application = await this.server.application();
      await connection.client.connector.track(application.id, assetId, use);
    } catch (error) {
      this.log.warn(`Tracking a ${use} asset failed: ${(error as Error).message}`);
    }
  }
}
