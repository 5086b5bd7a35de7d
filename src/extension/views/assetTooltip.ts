/**
 * What hovering an item of the Assets view shows: the snippet's name and language, its tags and
 * description, the secrets the host found in it (kind and line), and the head of its code highlighted in
 * its language. Bounded whatever the snippet's size (a 1 MiB one-line snippet shows its first characters).
 * A secret's value is never shown: the name, description and code show its placeholder instead.
 */
import * as vscode from 'vscode';
import type { Asset, ClassificationSpecific } from '../../core/piecesTypes.ts';
import { assetLanguage, assetText } from '../../client/assets.ts';
import { languageOf } from '../../core/classify/languages.ts';
import { languageName } from '../languageNames.ts';
import { escapeMarkdown } from '../../core/markdown.ts';
import { assetSecrets, describeSecret, hideSecrets, type SnippetSecret } from '../secrets/snippetSecrets.ts';

const PREVIEW_LINES = 15;
const PREVIEW_LINE_CHARS = 200;
const DESCRIPTION_CHARS = 1_000;

export interface TooltipDetails {
  readonly tags?: readonly string[];
  readonly description?: string | undefined;
  /** The user chose to sync this snippet with its secret (Sync With Its Secret); undefined when not known. */
  readonly syncsWithSecret?: boolean;
}

export function assetTooltip(asset: Asset, details: TooltipDetails = {}): vscode.MarkdownString {
  const language = assetLanguage(asset);
  const secrets = assetSecrets(asset);
  const shown = (text: string) => (secrets.length ? hideSecrets(text, secrets) : text);
  const markdown = new vscode.MarkdownString();
  markdown.appendMarkdown(`**${escapeMarkdown(shown(asset.name || 'Untitled'))}** · ${escapeMarkdown(languageName(language))}`);
  const tags = details.tags ?? asset.tags?.iterable?.map((tag) => tag.text).filter(Boolean) ?? [];
  if (tags.length) markdown.appendMarkdown(` · ${tags.map((tag) => `#${escapeMarkdown(tag)}`).join(' ')}`);
  if (secrets.length) appendSecrets(markdown, secrets, details.syncsWithSecret);
  const description = details.description?.trim() && shown(details.description.trim());
  if (description) {
    // The description is the user's own Markdown; untrusted, so links to commands and HTML stay inert.
    markdown.appendMarkdown('\n\n---\n\n');
    markdown.appendMarkdown(description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS)}…` : description);
  }
  markdown.appendMarkdown('\n\n');
  appendCode(markdown, shown(assetText(asset)), language);
  return markdown;
}

/** What was found, one line each (kind, category, line), and what leaves the machine instead. */
function appendSecrets(markdown: vscode.MarkdownString, secrets: readonly SnippetSecret[], syncsWithSecret: boolean | undefined): void {
  const count = secrets.length === 1 ? 'a secret' : `${secrets.length} secrets`;
  markdown.supportThemeIcons = true;
  markdown.appendMarkdown(`\n\n$(key) **Holds ${count}:**\n`);
  for (const secret of secrets) markdown.appendMarkdown(`\n- ${escapeMarkdown(describeSecret(secret))}`);
  // Unknown (the host did not say): only what holds whatever the choice.
  const sync = syncsWithSecret === undefined ? 'Agents and exports' : syncsWithSecret ? 'Syncs with its secret, as you chose; agents and exports' : 'Sync, agents and exports';
  markdown.appendMarkdown(`\n\n${sync} get a placeholder instead of the value.`);
}

/** The head of `text` as a highlighted code block (suggestions' tooltips show it too). */
export function codePreview(text: string, language: string | undefined): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  appendCode(markdown, text, language);
  return markdown;
}

function appendCode(markdown: vscode.MarkdownString, text: string, language: string | undefined): void {
  const lines: string[] = [];
  let at = 0;
  while (lines.length < PREVIEW_LINES && at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    lines.push(line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line);
    at = end === -1 ? text.length : end + 1;
  }
  if (!lines.length) return;
  // Fenced with VS Code's id for the language (`typescript`, not `ts`), which is what its highlighter knows.
  markdown.appendCodeblock(lines.join('\n'), languageOf((language ?? '') as ClassificationSpecific)?.vscodeId ?? language ?? '');
  const rest = at < text.length ? countLines(text, at) : 0;
  if (rest > 0) markdown.appendMarkdown(`\n… ${rest} more line${rest === 1 ? '' : 's'}`);
}

function countLines(text: string, from: number): number {
  let count = 1;
  for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}
