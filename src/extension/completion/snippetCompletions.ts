/**
 * Saved snippets in IntelliSense, in every document whatever its scheme (file, untitled, a remote
 * or virtual file system: a `{ scheme: 'file' }` filter is what broke another extension's
 * completions in SSH and WSL windows). The provider asks the host for candidates as the user types
 * (the list is incomplete, so VS Code asks again at the next keystroke), cancels the request with
 * the token, inserts through the shared insertion (snippetInsertion.ts) and fills each item's
 * Markdown preview when VS Code shows it.
 */
import * as vscode from 'vscode';
import { Owner, MutableDisposable } from '../../core/lifecycle.ts';
import type { ServerController } from '../serverController.ts';
import type { Settings } from '../settings.ts';
import type { Log } from '../log.ts';
import { snippetString } from '../snippetInsertion.ts';
import { COMPLETION_LIMIT, previewMarkdown, provideSnippets, type CandidateSource, type CompletionSettings, type SnippetCompletion } from './completionSource.ts';

class SnippetItem extends vscode.CompletionItem {
  readonly snippet: SnippetCompletion;

  constructor(snippet: SnippetCompletion) {
    super({ label: snippet.label, description: snippet.description }, vscode.CompletionItemKind.Snippet);
    this.snippet = snippet;
  }
}

/** Counted after each accepted item (the host records the use, as Insert at Cursor does). */
export const ACCEPTED_COMMAND = 'satchel.completion.accepted';

export class SnippetCompletions extends Owner {
  private readonly server: ServerController;
  private readonly settings: () => Settings;
  private readonly log: Log;
  private readonly registration = this._register(new MutableDisposable<vscode.Disposable>());
  private registeredFor: string | undefined;

  constructor(server: ServerController, settings: () => Settings, log: Log, track: (assetId: string) => void) {
    super();
    this.server = server;
    this.settings = settings;
    this.log = log;
    this._register(vscode.commands.registerCommand(ACCEPTED_COMMAND, (assetId: string) => track(assetId)));
    this.update();
  }

  /** Registers the provider for the current settings (its trigger characters depend on the trigger prefix). */
  update(): void {
    const { completionEnabled, completionTriggerPrefix } = this.settings();
    const key = completionEnabled ? completionTriggerPrefix : undefined;
    if (key === this.registeredFor && (key === undefined) === (this.registration.value === undefined)) return;
    this.registeredFor = key;
    if (key === undefined) {
      this.registration.value = undefined;
      return;
    }
    // A prefix ending in punctuation (`sat:`) opens the list when that character is typed; word characters do anyway.
    const last = key.at(-1);
    const triggers = last !== undefined && !/[\p{L}\p{N}_]/u.test(last) ? [last] : [];
    this.registration.value = vscode.languages.registerCompletionItemProvider(
      // Every document whatever its scheme. A glob that matches every path scores as high as a
      // language's own provider: VS Code asks providers in groups of equal score and stops at the
      // first group that answers, so `'*'` (a lower score) was never asked in a TypeScript file.
      { pattern: '**' },
      {
        provideCompletionItems: (document, position, token, context) => this.provide(document, position, token, context),
        resolveCompletionItem: (item, token) => this.resolve(item, token),
      },
      ...triggers,
    );
  }

  private async provide(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken, context: vscode.CompletionContext): Promise<vscode.CompletionList | undefined> {
    const connection = this.server.connection;
    if (!connection) return undefined;
    const settings: CompletionSettings = { enabled: this.settings().completionEnabled, triggerPrefix: this.settings().completionTriggerPrefix };
    const line = document.lineAt(position.line).text;
    const wordRange = document.getWordRangeAtPosition(position);
    const input = {
      lineBefore: line.slice(0, position.character),
      wordBefore: wordRange ? document.getText(new vscode.Range(wordRange.start, position)) : '',
      languageId: document.languageId,
      invoked: context.triggerKind === vscode.CompletionTriggerKind.Invoke,
    };
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    const source: CandidateSource = (query, languageId, signal) => connection.client.snippets.completions(query, { language: languageId, limit: COMPLETION_LIMIT, signal });
    try {
      const answer = await provideSnippets(input, settings, source, controller.signal);
      if (!answer || token.isCancellationRequested) return undefined;
      const replaced = answer.typed === undefined ? undefined : new vscode.Range(position.translate(0, -answer.typed.length), position);
      const items = answer.items.map((snippet) => this.item(snippet, replaced));
      return new vscode.CompletionList(items, answer.incomplete);
    } catch (error) {
      if (!controller.signal.aborted) this.log.warn(`Snippet completion failed: ${(error as Error).message}`);
      return undefined;
    } finally {
      cancel.dispose();
    }
  }

  private item(snippet: SnippetCompletion, replaced: vscode.Range | undefined): SnippetItem {
    const item = new SnippetItem(snippet);
    item.detail = snippet.detail;
    item.filterText = snippet.filterText;
    item.sortText = snippet.sortText;
    if (replaced) item.range = replaced;
    const { text, syntax } = snippet.candidate;
    if (text !== undefined) {
      item.insertText = snippetString({ text, syntax });
      item.command = { command: ACCEPTED_COMMAND, title: 'Record use', arguments: [snippet.candidate.id] };
    } else {
      // Too large to come with the list: the typed text goes, then the whole snippet is fetched and inserted.
      item.insertText = '';
      item.command = { command: 'satchel.insertAsset', title: 'Insert snippet', arguments: [snippet.candidate.id] };
    }
    return item;
  }

  /** The preview, with the tags and description asked for now (the list itself leaves them out: it is asked for at every keystroke). */
  private async resolve(item: vscode.CompletionItem, token: vscode.CancellationToken): Promise<vscode.CompletionItem> {
    if (!(item instanceof SnippetItem)) return item;
    const { candidate } = item.snippet;
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    let details = {};
    try {
      details = (await this.server.connection?.client.snippets.info(candidate.id, controller.signal)) ?? {};
    } catch (error) {
      if (!controller.signal.aborted) this.log.warn(`Snippet preview: ${(error as Error).message}`);
    } finally {
      cancel.dispose();
    }
    item.documentation = new vscode.MarkdownString(previewMarkdown(candidate, details));
    return item;
  }
}
