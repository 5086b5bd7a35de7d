/**
 * Secrets marked in an open snippet's documents (its code and its description): each value highlighted, a warning in the Problems view and
 * on hover (the kind and what the doors show instead, never the value), and the quick fixes Replace Secret
 * with Placeholder, Not a Secret and Forget Secret on it. The document may hold unsaved edits, so the
 * values are found in its text as it is now (snippetSecrets.ts), not at the host's offsets.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { CollectionChange } from '../liveCollection.ts';
import { snippetOf } from '../editing/snippetFileSystem.ts';
import { placeholderFor } from '../../core/secrets/findings.ts';
import { categoryName, locateSecrets, type SnippetSecret } from './snippetSecrets.ts';

/** What a secret command is given from a mark: the snippet and the finding. */
export interface SecretTarget {
  readonly asset: string;
  readonly sensitive?: string;
}

export interface SecretMark {
  readonly range: vscode.Range;
  readonly secret: SnippetSecret;
}

const SOURCE = 'Satchel';
const CODE = 'secret';
/** Typing in a large snippet re-reads its text at most this often. */
const SETTLE_MS = 200;

export class SecretMarks extends Owner implements vscode.CodeActionProvider {
  static readonly actionKinds = [vscode.CodeActionKind.QuickFix];
  private readonly secretsOf: (assetId: string) => readonly SnippetSecret[];
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('satchel-secrets'));
  private readonly decoration = this._register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('satchel.secretBackground'),
      border: '1px dashed',
      borderColor: new vscode.ThemeColor('editorWarning.foreground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    }),
  );
  private readonly marks = new Map<string, readonly SecretMark[]>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  /** `secretsOf`: what the host recorded for a snippet (the Assets view's copy); `onDidChangeAssets`: when that changes. */
  constructor(secretsOf: (assetId: string) => readonly SnippetSecret[], onDidChangeAssets: vscode.Event<CollectionChange>) {
    super();
    this.secretsOf = secretsOf;
    this._register(vscode.languages.registerCodeActionsProvider({ scheme: 'satchel' }, this, { providedCodeActionKinds: SecretMarks.actionKinds }));
    this._register(onDidChangeAssets(({ ids, full }) => this.refreshOpen(full ? undefined : new Set(ids))));
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.refresh(document)));
    this._register(vscode.workspace.onDidChangeTextDocument(({ document }) => this.settle(document)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        const key = document.uri.toString();
        clearTimeout(this.pending.get(key));
        this.pending.delete(key);
        this.marks.delete(key);
        this.diagnostics.delete(document.uri);
      }),
    );
    this._register(vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((editor) => this.paint(editor))));
    this.refreshOpen(undefined);
  }

  /** The marks of a document as last computed (tests and commands read them). */
  marksIn(document: vscode.TextDocument): readonly SecretMark[] {
    return this.marks.get(document.uri.toString()) ?? [];
  }

  /** Marks a snippet's document (its code or its description) again from its text and its recorded secrets. */
  refresh(document: vscode.TextDocument): void {
    const snippet = snippetOf(document.uri);
    if (!snippet) return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    const secrets = this.secretsOf(snippet.id);
    const marks = secrets.length
      ? locateSecrets(document.getText(), secrets).map((span) => ({
          secret: span.secret,
          range: new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)),
        }))
      : [];
    if (!marks.length && !this.marks.has(key)) return;
    if (marks.length) this.marks.set(key, marks);
    else this.marks.delete(key);
    this.diagnostics.set(document.uri, marks.map(diagnosticOf));
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === document) this.paint(editor);
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const snippet = snippetOf(document.uri);
    if (!snippet) return [];
    const actions: vscode.CodeAction[] = [];
    const seen = new Set<string>();
    for (const mark of this.marksIn(document)) {
      if (!mark.range.intersection(range) || seen.has(mark.secret.id)) continue;
      seen.add(mark.secret.id);
      const diagnostics = context.diagnostics.filter((d) => d.source === SOURCE && d.range.isEqual(mark.range));
      const target: SecretTarget = { asset: snippet.id, sensitive: mark.secret.id };
      const action = (title: string, command: string, preferred = false) => {
        const fix = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        fix.command = { title, command, arguments: [target] };
        fix.diagnostics = diagnostics;
        fix.isPreferred = preferred;
        actions.push(fix);
      };
      // The tab stop goes into the code; a value in the description is forgotten or dismissed.
      if (snippet.part === 'content') action(`Replace ${mark.secret.label} with Placeholder`, 'satchel.secret.replaceWithPlaceholder', true);
      action('Not a Secret', 'satchel.secret.notASecret');
      action('Forget Secret…', 'satchel.secret.forget');
    }
    return actions;
  }

  private settle(document: vscode.TextDocument): void {
    if (!snippetOf(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(key, setTimeout(() => this.refresh(document), SETTLE_MS));
  }

  private refreshOpen(ids: ReadonlySet<string> | undefined): void {
    for (const document of vscode.workspace.textDocuments) {
      const snippet = snippetOf(document.uri);
      if (snippet && (!ids || ids.has(snippet.id))) this.refresh(document);
    }
  }

  private paint(editor: vscode.TextEditor): void {
    if (!snippetOf(editor.document.uri)) return;
    editor.setDecorations(this.decoration, this.marksIn(editor.document).map((mark) => mark.range));
  }

  override dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    super.dispose();
  }
}

/** The warning on a value: what it is and what leaves the machine instead. Never the value. */
function diagnosticOf({ range, secret }: SecretMark): vscode.Diagnostic {
  const kind = categoryName(secret.category);
  const what = secret.label.toLowerCase() === kind.toLowerCase() ? secret.label : `${secret.label} (${kind})`;
  const severity = secret.severity === 'HIGH' || secret.severity === 'MODERATE' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
  const diagnostic = new vscode.Diagnostic(
    range,
    `${what}. Sync, agents and exports get ${placeholderFor(secret)} instead of this value; your copy keeps it.`,
    severity,
  );
  diagnostic.source = SOURCE;
  diagnostic.code = CODE;
  return diagnostic;
}
