/**
 * The text the agents see and show: a snippet reduced to what an agent can act on (id, name,
 * language, tags, a short preview), Markdown for chat answers, the code block `/save` picks from
 * a chat, and the grounding prompt. Pure (no vscode, no network), so plain tests cover it.
 */
import type { Asset } from '../../core/piecesTypes.ts';
import { assetLanguage, assetText } from '../../client/assets.ts';
import { escapeMarkdown, fenced } from '../../core/markdown.ts';

export interface SnippetSummary {
  readonly id: string;
  readonly name: string;
  readonly language: string | undefined;
  readonly tags: readonly string[];
  readonly preview: string;
  /** ISO time of the last change. */
  readonly updated: string | undefined;
}

export interface SnippetDetail extends SnippetSummary {
  readonly content: string;
  readonly websites: readonly string[];
  readonly conversations: readonly string[];
}

const PREVIEW_LINES = 6;
const PREVIEW_CHARS = 400;

/** The first lines of the code, bounded in lines and characters (a minified one-liner stays short). */
export function preview(text: string, maxLines = PREVIEW_LINES, maxChars = PREVIEW_CHARS): string {
  let end = 0;
  let lines = 0;
  while (end < text.length && lines < maxLines && end < maxChars) {
    const newline = text.indexOf('\n', end);
    if (newline === -1) {
      end = text.length;
      break;
    }
    end = newline + 1;
    lines++;
  }
  const cut = Math.min(end, maxChars);
  const head = text.slice(0, cut).replace(/\s+$/, '');
  return cut < text.trimEnd().length ? `${head}\n…` : head;
}

/** A snippet's name and code as an agent may read them (the host's agent view: secrets as placeholders). */
export interface ShownTexts {
  readonly name: string;
  readonly code: string;
  /** Its websites' URLs as an agent may read them (absent: as the snippet holds them, for texts shown without the host). */
  readonly websites?: readonly string[] | undefined;
}

function shownOf(asset: Asset): ShownTexts {
  return { name: asset.name ?? '', code: assetText(asset) };
}

export function summarize(asset: Asset, shown: ShownTexts = shownOf(asset)): SnippetSummary {
  return {
    id: asset.id,
    name: shown.name.trim() || 'Untitled snippet',
    language: assetLanguage(asset),
    tags: (asset.tags?.iterable ?? []).map((tag) => tag.text).filter((text): text is string => Boolean(text)),
    preview: preview(shown.code),
    updated: asset.updated?.value ? String(asset.updated.value) : undefined,
  };
}

export function detail(asset: Asset, shown: ShownTexts = shownOf(asset)): SnippetDetail {
  return {
    ...summarize(asset, shown),
    content: shown.code,
    websites: shown.websites ?? (asset.websites?.iterable ?? []).map((site) => site.url).filter((url): url is string => Boolean(url)),
    conversations: (asset.conversations?.iterable ?? []).map((c) => c.id),
  };
}

/** Markdown-escapes a name shown inline (names are user text). */
export function inline(text: string): string {
  return escapeMarkdown(text).replace(/\s+/g, ' ');
}

function meta(snippet: SnippetSummary): string {
  return [inline(snippet.language ?? 'unclassified'), ...snippet.tags.map((tag) => `#${inline(tag)}`)].join(' · ');
}

/** The answer with no model: one entry per snippet, name, language and tags, then the preview. */
export function resultsMarkdown(query: string, snippets: readonly SnippetSummary[]): string {
  if (snippets.length === 0) return `No saved snippet matches **${inline(query)}**.`;
  const header = `${snippets.length === 1 ? 'One saved snippet matches' : `${snippets.length} saved snippets match`} **${inline(query)}**:`;
  const items = snippets.map((s, i) => `${i + 1}. **${inline(s.name)}** — ${meta(s)}\n\n${indent(fenced(s.preview, s.language ?? ''))}`);
  return [header, ...items].join('\n\n');
}

export function snippetMarkdown(snippet: SnippetDetail): string {
  const lines = [`**${inline(snippet.name)}** — ${meta(snippet)}`, '', fenced(snippet.content, snippet.language ?? '')];
  if (snippet.websites.length) lines.push('', `Linked: ${snippet.websites.map((url) => `<${url}>`).join(', ')}`);
  return lines.join('\n');
}

function indent(block: string): string {
  return block.replace(/^/gm, '   ');
}

export interface CodeBlock {
  readonly code: string;
  readonly language: string | undefined;
}

/**
 * The last fenced code block in a list of texts (oldest first). A fence closes only with the same
 * character and at least as many of them, as in CommonMark; an unclosed block runs to the end.
 */
export function lastCodeBlock(texts: readonly string[]): CodeBlock | undefined {
  for (let t = texts.length - 1; t >= 0; t--) {
    const blocks = codeBlocks(texts[t]!);
    const last = blocks.at(-1);
    if (last && last.code.trim()) return last;
  }
  return undefined;
}

export function codeBlocks(text: string): CodeBlock[] {
  return splitFences(text).blocks;
}

/** The text outside fenced code blocks (the words of a prompt around its code). */
export function proseOf(text: string): string {
  return splitFences(text).prose.join('\n');
}

function splitFences(text: string): { blocks: CodeBlock[]; prose: string[] } {
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  let open: { marker: string; language: string | undefined; body: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (!open) {
      const match = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/.exec(line);
      if (match) open = { marker: match[1]!, language: match[2] || undefined, body: [] };
      else prose.push(line);
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1]![0] === open.marker[0] && close[1]!.length >= open.marker.length) {
      blocks.push({ code: open.body.join('\n'), language: open.language });
      open = undefined;
    } else open.body.push(line);
  }
  if (open) blocks.push({ code: open.body.join('\n'), language: open.language });
  return { blocks, prose };
}

/**
 * The prompt grounding a model in saved snippets: the snippets first (each bounded, the whole
 * within `budget` characters), numbered so the answer can cite them.
 */
export function groundingPrompt(question: string, snippets: readonly SnippetDetail[], budget = 12_000): string {
  const parts: string[] = [];
  let left = budget;
  for (const [i, snippet] of snippets.entries()) {
    if (left <= 200) break;
    const code = snippet.content.length > left - 200 ? `${snippet.content.slice(0, left - 200)}\n…` : snippet.content;
    const part = `[${i + 1}] ${snippet.name} (${snippet.language ?? 'unclassified'})\n${fenced(code, snippet.language ?? '')}`;
    parts.push(part);
    left -= part.length;
  }
  const context = parts.length ? parts.join('\n\n') : '(no saved snippet matched)';
  return [
    'You answer questions about the user\'s saved code snippets (their Satchel library).',
    'Use only the snippets below; cite them as [1], [2]…; if none fits, say so in one sentence.',
    '',
    context,
    '',
    `Question: ${question}`,
  ].join('\n');
}
