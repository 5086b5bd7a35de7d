/**
 * Where a proposed snippet template is shown for confirmation: an editable document of its own
 * scheme (kept in memory, so closing it never asks to save a file), its placeholders marked, and
 * CodeLens above its first line to save or discard it. It is plain text: as code, a language
 * server reports every `${1:name}` as an error.
 */
import * as vscode from 'vscode';
import { Owner } from '../core/lifecycle.ts';
import { tabStopSpans } from '../core/snippets/snippetSyntax.ts';

export const TEMPLATE_SCHEME = 'satchel-template';
export const SAVE_TEMPLATE_COMMAND = 'satchel.template.save';
export const DISCARD_TEMPLATE_COMMAND = 'satchel.template.discard';

export type TemplateDecision = { readonly action: 'save'; readonly body: string } | { readonly action: 'discard' };

interface OpenPreview {
  /** Short: the CodeLens line has the editor's width. */
  readonly title: string;
  readonly summary: string;
  readonly decide: (decision: TemplateDecision) => void;
}

export class TemplatePreviews extends Owner {
  private readonly files = new Map<string, Uint8Array>();
  private readonly open = new Map<string, OpenPreview>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  private readonly lenses = this._register(new vscode.EventEmitter<void>());
  private readonly highlight = this._register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('editor.snippetTabstopHighlightBackground'),
      border: '1px solid',
      borderColor: new vscode.ThemeColor('editor.snippetTabstopHighlightBorder'),
    }),
  );
  private counter = 0;

  constructor() {
    super();
    const files = this.files;
    const changed = this.changed;
    this._register(
      vscode.workspace.registerFileSystemProvider(
        TEMPLATE_SCHEME,
        {
          onDidChangeFile: changed.event,
          watch: () => new vscode.Disposable(() => {}),
          stat: (uri) => {
            const file = files.get(uri.path);
            if (!file) throw vscode.FileSystemError.FileNotFound(uri);
            return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.length };
          },
          readDirectory: () => [],
          createDirectory: () => {},
          readFile: (uri) => {
            const file = files.get(uri.path);
            if (!file) throw vscode.FileSystemError.FileNotFound(uri);
            return file;
          },
          writeFile: (uri, content) => void files.set(uri.path, content),
          delete: (uri) => void files.delete(uri.path),
          rename: () => {
            throw vscode.FileSystemError.NoPermissions('a template preview cannot be renamed');
          },
        },
        { isCaseSensitive: true },
      ),
    );
    this._register(
      vscode.languages.registerCodeLensProvider({ scheme: TEMPLATE_SCHEME }, {
        onDidChangeCodeLenses: this.lenses.event,
        provideCodeLenses: (document) => {
          const preview = this.open.get(document.uri.toString());
          if (!preview) return [];
          const top = new vscode.Range(0, 0, 0, 0);
          return [
            new vscode.CodeLens(top, { title: '$(check) Save as Snippet Template…', tooltip: preview.summary, command: SAVE_TEMPLATE_COMMAND, arguments: [document.uri] }),
            new vscode.CodeLens(top, { title: '$(close) Discard', command: DISCARD_TEMPLATE_COMMAND, arguments: [document.uri] }),
            new vscode.CodeLens(top, { title: preview.title, tooltip: preview.summary, command: '' }),
          ];
        },
      }),
    );
    this._register(vscode.commands.registerCommand(SAVE_TEMPLATE_COMMAND, (uri?: vscode.Uri) => this.decide(uri, 'save')));
    this._register(vscode.commands.registerCommand(DISCARD_TEMPLATE_COMMAND, (uri?: vscode.Uri) => this.decide(uri, 'discard')));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.mark(event.document)));
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => vscode.workspace.textDocuments.forEach((document) => this.mark(document))));
    // Closing the preview discards the template.
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.open.get(document.uri.toString())?.decide({ action: 'discard' })));
  }

  /**
   * Shows `body` beside the active editor and resolves with what the user chose: save (with the
   * text as the user left it) or discard (also by closing it). The preview is closed either way.
   * `title` goes above the template, `summary` in its tooltip.
   */
  async show(body: string, title: string, summary: string): Promise<TemplateDecision> {
    const uri = vscode.Uri.from({ scheme: TEMPLATE_SCHEME, path: `/${++this.counter}/Snippet template` });
    this.files.set(uri.path, Buffer.from(body, 'utf8'));
    // Setting the language closes the document and opens it again: the preview is known only after.
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'plaintext');
    const decision = new Promise<TemplateDecision>((resolve) => {
      this.open.set(document.uri.toString(), {
        title,
        summary,
        decide: (chosen) => {
          if (!this.open.delete(document.uri.toString())) return;
          resolve(chosen);
        },
      });
    });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    this.mark(document);
    this.lenses.fire();
    const chosen = await decision;
    await this.close(document);
    this.files.delete(uri.path);
    return chosen;
  }

  private decide(uri: vscode.Uri | undefined, action: 'save' | 'discard'): void {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === target?.toString());
    const preview = target && this.open.get(target.toString());
    if (!preview) return;
    preview.decide(action === 'save' ? { action, body: document?.getText() ?? '' } : { action });
  }

  private mark(document: vscode.TextDocument): void {
    if (document.uri.scheme !== TEMPLATE_SCHEME) return;
    const body = document.getText();
    const ranges = tabStopSpans(body).map(([start, end]) => new vscode.Range(document.positionAt(start), document.positionAt(end)));
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === document) editor.setDecorations(this.highlight, ranges);
  }

  /** Closes the preview without asking to save an edited one. */
  private async close(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}
