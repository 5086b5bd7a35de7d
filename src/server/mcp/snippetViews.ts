/**
 * Assets as an agent reads them: a few plain fields (id, name, language, tags, a short preview)
 * instead of the wire document, whose formats, scores and indices cost an agent tokens and help it
 * with nothing.
 */
import type { Asset, ClassificationSpecific, Format } from '../../core/piecesTypes.ts';
import type { AssetSummary } from '../../core/assets/assetService.ts';
import { languageOf } from '../../core/classify/languages.ts';
import { fenced } from '../../core/markdown.ts';
import { LIMITS } from '../../core/limits.ts';

/** Lines and characters of a snippet shown in a listing. */
const PREVIEW_LINES = 4;
const PREVIEW_CHARS = 240;
/**
 * Characters of a snippet a tool returns whole. No agent's context holds a text of today's content
 * limit (4 MiB), and the reply would carry it twice (text and structured). The resource has it all,
 * up to that limit (`wholeAtResource`).
 */
export const MAX_CONTENT_CHARS = 256 * 1024;

/**
 * Whether the resource `satchel://assets/{id}` sends a text of `chars` characters whole: up to a
 * snippet's content limit. A longer one (an older store's: a 60 MB paste) is cut at every MCP door
 * where get_snippet cuts it: read and sent whole, it held the host's event loop 0.3–0.6 s (SQLite
 * taking it out of its document, then the reply's serialisation), and no agent's context holds it.
 */
export function wholeAtResource(chars: number): boolean {
  return chars <= LIMITS.contentChars;
}

/** What a door that cut a text to its first `shown` characters says after them; where to read the rest, when an MCP door sends it. */
export function cutNote(id: string, shown: number, chars: number): string {
  const rest = wholeAtResource(chars)
    ? `read satchel://assets/${id} for all of it`
    : `a text over ${LIMITS.contentChars} characters, stored before snippets were limited to that, is cut here at every MCP door`;
  return `(The first ${shown} of ${chars} characters; ${rest}.)`;
}

export interface SnippetSummary {
  readonly id: string;
  readonly name: string;
  /** The stored classification (`ts`, `py`…). */
  readonly language: string;
  /** Its first tags (see `moreTags`). */
  readonly tags: string[];
  /** Present (true) when it carries more tags than `tags` names. */
  readonly moreTags?: true;
  readonly preview: string;
  readonly created: string;
  /** Its current revision: what update_snippet and delete_snippet take as `expected_revision`. */
  readonly revision: string;
  /** Present (true) when it is a memory (a note an agent saved, not code): recall_memories shows it with its files checked. */
  readonly memory?: true;
}

export interface SnippetDetail extends Omit<SnippetSummary, 'preview' | 'moreTags' | 'memory'> {
  readonly languageName: string;
  readonly content: string;
  /** True when `content` holds only the first MAX_CONTENT_CHARS characters. */
  readonly truncated: boolean;
  /** Characters of the whole content. */
  readonly length: number;
  /** True when the snippet is binary (an image): `content` is then empty. */
  readonly binary: boolean;
  readonly updated: string;
  readonly websites: Array<{ url: string; name: string }>;
  readonly conversations: Array<{ id: string; name: string }>;
}

/** The format the asset was saved as (the one its content and language are read from). */
export function originalOf(asset: Asset): Pick<Format, 'classification' | 'fragment' | 'file'> | undefined {
  return asset.original.reference ?? asset.formats.iterable.find((format) => format.id === asset.original.id) ?? asset.formats.iterable[0];
}

function specificOf(asset: Asset): string {
  return originalOf(asset)?.classification.specific ?? 'txt';
}

/** `ts` → `TypeScript`; values Satchel has no name for are shown as stored. */
export function languageName(specific: string): string {
  return languageOf(specific as ClassificationSpecific)?.name ?? specific;
}

/**
 * The first lines of `text`, cut to PREVIEW_CHARS; the scan stops there whatever the text's size.
 * `text` may be the opening of a longer text of `chars` characters.
 */
export function previewOf(text: string, chars = text.length): string {
  const head = text.slice(0, PREVIEW_CHARS + 1);
  const lines = head.split('\n').slice(0, PREVIEW_LINES).join('\n').trimEnd();
  const cut = lines.length > PREVIEW_CHARS ? lines.slice(0, PREVIEW_CHARS) : lines;
  return chars > text.length || cut.length < text.trimEnd().length ? `${cut}…` : cut;
}

/** `revision`: the asset's current revision, read before its summary (see `summariesOf` in snippetTools.ts). */
export function summaryOf(summary: AssetSummary, revision: string, memory = false): SnippetSummary {
  return {
    ...(memory ? { memory: true as const } : {}),
    id: summary.id,
    name: summary.name,
    language: summary.language,
    tags: summary.tags,
    ...(summary.moreTags ? { moreTags: true as const } : {}),
    preview: summary.binary ? '(binary content)' : previewOf(summary.text, summary.chars),
    created: summary.created,
    revision,
  };
}

/** What save_snippet answers of the snippet it saved: all of its tags (a new one holds at most 128). */
export function savedOf(asset: Asset): { id: string; name: string; language: string; tags: string[] } {
  return { id: asset.id, name: asset.name ?? '', language: specificOf(asset), tags: (asset.tags?.iterable ?? []).map((tag) => tag.text) };
}

/**
 * A snippet in full: `asset` may be without content; `content` is the opening of its text (at
 * least MAX_CONTENT_CHARS + 1 characters of it when there are); `revision` its current revision,
 * read before the rest (see `summariesOf` in snippetTools.ts).
 */
export function detailOf(asset: Asset, content: { text: string; chars: number; binary: boolean }, revision: string): SnippetDetail {
  const { text, chars, binary } = content;
  const specific = specificOf(asset);
  return {
    id: asset.id,
    name: asset.name ?? '',
    language: specific,
    languageName: languageName(specific),
    tags: (asset.tags?.iterable ?? []).map((tag) => tag.text),
    content: text.length > MAX_CONTENT_CHARS ? text.slice(0, MAX_CONTENT_CHARS) : text,
    truncated: chars > MAX_CONTENT_CHARS,
    length: chars,
    binary,
    created: asset.created.value,
    updated: asset.updated.value,
    websites: (asset.websites?.iterable ?? []).map((site) => ({ url: site.url, name: site.name })),
    conversations: (asset.conversations?.iterable ?? []).map((conversation) => ({ id: conversation.id, name: conversation.name ?? '' })),
    revision,
  };
}

/** One listing line per snippet, then its indented preview: what an agent reads first. */
export function listingText(snippets: readonly SnippetSummary[]): string {
  return snippets
    .map((s) => {
      const tags = s.tags.length > 0 ? ` [${s.tags.join(', ')}${s.moreTags ? ', …' : ''}]` : '';
      const preview = s.preview.split('\n').map((line) => `    ${line}`).join('\n');
      const kind = s.memory ? 'memory, ' : '';
      return `- ${s.name} (id ${s.id}, ${kind}${languageName(s.language)}, revision ${s.revision})${tags}\n${preview}`;
    })
    .join('\n');
}

/** A whole snippet as text: a header of its facts, then its content in a fenced block. */
export function detailText(detail: SnippetDetail): string {
  const lines = [`# ${detail.name}`, `id: ${detail.id}`, `revision: ${detail.revision}`, `language: ${detail.languageName} (${detail.language})`];
  if (detail.tags.length > 0) lines.push(`tags: ${detail.tags.join(', ')}`);
  for (const site of detail.websites) lines.push(`website: ${site.url}${site.name && site.name !== site.url ? ` (${site.name})` : ''}`);
  for (const conversation of detail.conversations) lines.push(`conversation: ${conversation.name || '(untitled)'} (id ${conversation.id})`);
  lines.push(`created: ${detail.created}`, `updated: ${detail.updated}`, '');
  if (detail.binary) lines.push('(binary content, not shown)');
  else lines.push(fenced(detail.content, detail.language));
  if (detail.truncated) lines.push(cutNote(detail.id, detail.content.length, detail.length));
  return lines.join('\n');
}
