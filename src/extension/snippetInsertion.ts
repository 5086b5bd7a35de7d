/**
 * The one way Satchel puts a saved snippet into an editor: Insert at Cursor, completion and drag
 * and drop all build the same SnippetString, so a snippet that is VS Code snippet syntax gets its
 * tab stops, placeholders and choices, and plain code is escaped (a `$` stays a `$`).
 */
import * as vscode from 'vscode';
import type { Asset } from '../core/piecesTypes.ts';
import { snippetBody, type InsertableText } from '../core/snippets/snippetSyntax.ts';
import { assetText, hasContent } from '../client/assets.ts';
import type { SatchelClient } from '../client/satchelClient.ts';

export type { InsertableText } from '../core/snippets/snippetSyntax.ts';

/** What completion items, drop edits and `insertSnippet` take for a saved snippet. */
export function snippetString(snippet: InsertableText): vscode.SnippetString {
  return new vscode.SnippetString(snippetBody(snippet));
}

/**
 * Inserts the snippet in `editor` at `location` (default: each selection, replacing what it
 * selects), as VS Code inserts its own snippets (indentation adjusted to the line's).
 */
export function insertSnippet(
  editor: vscode.TextEditor,
  snippet: InsertableText,
  location: vscode.Position | vscode.Range | readonly vscode.Position[] | readonly vscode.Range[] = editor.selections,
): Thenable<boolean> {
  return editor.insertSnippet(snippetString(snippet), location);
}

/** A saved asset as an insertion needs it: its text, and whether the host records it as snippet syntax. */
export async function insertableAsset(client: SatchelClient, asset: Asset): Promise<InsertableText> {
  const text = hasContent(asset) ? assetText(asset) : assetText(await client.assets.get(asset.id));
  const { syntax } = await client.snippets.info(asset.id);
  return { text, syntax };
}
