/**
 * What the completion provider does apart from VS Code's types (so node tests and the benchmark
 * run it as the provider does): read what the user typed from the line and the word before the
 * cursor, ask the host for candidates, and turn them into items: label, filter and sort text, the
 * snippet-syntax body to insert and a Markdown preview.
 */
import type { CompletionCandidate, CompletionReply } from '../../wire/snippets.ts';
import { renderSnippet, snippetBody } from '../../core/snippets/snippetSyntax.ts';
import { languageOf } from '../../core/classify/languages.ts';
import { fenced } from '../../core/markdown.ts';
import type { ClassificationSpecific } from '../../core/piecesTypes.ts';
import { escapeMarkdown } from '../../core/markdown.ts';

export interface CompletionSettings {
  readonly enabled: boolean;
  /** '' offers snippets for the word being typed; otherwise only for text typed right after this prefix. */
  readonly triggerPrefix: string;
}

/** The request as VS Code gives it to a provider. */
export interface CompletionInput {
  /** The line up to the cursor. */
  readonly lineBefore: string;
  /** The part before the cursor of the word at the cursor, by the document's word definition ('' when none). */
  readonly wordBefore: string;
  readonly languageId: string;
  /** Asked for explicitly (Ctrl+Space), not by typing. */
  readonly invoked: boolean;
}

/** What the user typed that snippets are looked up by, and what an accepted item replaces. */
export interface TypedQuery {
  readonly query: string;
  /** The text before the cursor an accepted item replaces (the trigger prefix and the query, or the word). */
  readonly typed: string;
}

/**
 * Candidates asked for per keystroke: the suggest widget shows 12 at a time and the list is asked
 * for again at the next keystroke, so more would only make each reply larger.
 */
export const COMPLETION_LIMIT = 30;
/** Typed words shorter than this ask nothing (unless completion is invoked): every word start would send a request. */
export const MIN_TYPED = 2;
/** Documents whose completions are not code (the source control commit box). */
const NOT_CODE = new Set(['scminput', 'log', 'search-result']);

/**
 * What to look snippets up by, or `later` when nothing is to be offered yet but may be once the user
 * types more (the provider answers an incomplete empty list, so VS Code asks again), or undefined
 * when completion is off or the document is not code.
 */
export function typedQuery(input: CompletionInput, settings: CompletionSettings): TypedQuery | 'later' | undefined {
  if (!settings.enabled || NOT_CODE.has(input.languageId)) return undefined;
  const trigger = settings.triggerPrefix;
  if (trigger !== '') {
    const at = input.lineBefore.lastIndexOf(trigger);
    if (at === -1) return 'later';
    const query = input.lineBefore.slice(at + trigger.length);
    // The trigger starts a word of its own, and the query is one word.
    if (/\s/u.test(query) || (at > 0 && /[\p{L}\p{N}_]/u.test(input.lineBefore[at - 1]!))) return 'later';
    return { query, typed: trigger + query };
  }
  const word = input.wordBefore;
  if (word.length < MIN_TYPED && !input.invoked) return 'later';
  return { query: word, typed: word };
}

export interface SnippetCompletion {
  readonly candidate: CompletionCandidate;
  /** A prefix when one matches what was typed (as VS Code shows its own snippets), else the name. */
  readonly label: string;
  /** Shown beside the label: the name when the label is a prefix. */
  readonly description: string;
  readonly detail: string;
  /** Starts with the word that matched, so VS Code's own filtering keeps the item and ranks it fairly. */
  readonly filterText: string;
  readonly sortText: string;
  /** Snippet syntax to insert; undefined when the text was too large to come with the list (inserted by id). */
  readonly body: string | undefined;
}

/** The items for a reply, in the host's order. */
export function completionItems(typed: TypedQuery, reply: CompletionReply, triggerPrefix: string): SnippetCompletion[] {
  const query = typed.query.toLowerCase();
  return reply.candidates.map((candidate, rank) => {
    const prefix = candidate.prefixes.find((p) => p.toLowerCase().startsWith(query)) ?? (query === '' ? candidate.prefixes[0] : undefined);
    const word = prefix ?? candidate.match ?? nameWordStarting(candidate.name, query);
    const label = prefix ?? candidate.name;
    return {
      candidate,
      label,
      description: prefix !== undefined && candidate.name !== prefix ? candidate.name : '',
      detail: `Satchel · ${languageLabel(candidate.language)} ${candidate.syntax ? 'template' : 'snippet'}`,
      filterText: `${triggerPrefix}${word !== undefined ? `${word} ` : ''}${candidate.name}`,
      sortText: `${String(rank).padStart(4, '0')}`,
      body: candidate.text === undefined ? undefined : snippetBody({ text: candidate.text, syntax: candidate.syntax }),
    };
  });
}

/** A word of the name starting with `query` (lower-cased), when the host did not say which word matched. */
function nameWordStarting(name: string, query: string): string | undefined {
  if (query === '') return undefined;
  return name.split(/[^\p{L}\p{N}_$]+/u).find((word) => word.toLowerCase().startsWith(query));
}

function languageLabel(language: string): string {
  return languageOf(language as ClassificationSpecific)?.name ?? language;
}

/** Lines of a snippet the preview shows. */
const PREVIEW_LINES = 40;

/**
 * The item's documentation: name, language, tags and description (`details`, asked for when the
 * item is shown), then the code as it will be inserted (a template's placeholders show their
 * defaults), highlighted as its language.
 */
export function previewMarkdown(candidate: CompletionCandidate, details: { readonly tags?: readonly string[]; readonly description?: string } = {}): string {
  const tags = (details.tags ?? []).map((tag) => `\`${tag.replace(/`/g, "'")}\``).join(' ');
  // The language is in the item's detail, shown above.
  const head = [`**${escapeMarkdown(candidate.name || 'Untitled')}**`, tags].filter(Boolean).join(' · ');
  const parts = [head];
  if (details.description) parts.push(escapeMarkdown(details.description));
  if (candidate.text === undefined) {
    parts.push(`_${candidate.length.toLocaleString('en')} characters: inserted whole when accepted._`);
  } else {
    const shown = candidate.syntax ? renderSnippet(candidate.text) : candidate.text;
    const lines = shown.split('\n');
    const info = languageOf(candidate.language as ClassificationSpecific)?.vscodeId ?? '';
    parts.push(fenced(lines.slice(0, PREVIEW_LINES).join('\n'), info));
    if (lines.length > PREVIEW_LINES) parts.push(`_… ${lines.length - PREVIEW_LINES} more lines_`);
  }
  if (candidate.syntax) parts.push('_Snippet template: Tab moves between its placeholders._');
  return parts.join('\n\n');
}

/** Asks the host for COMPLETION_LIMIT candidates; the provider and the benchmark share it. */
export type CandidateSource = (query: string, languageId: string, signal: AbortSignal) => Promise<CompletionReply>;

export interface CompletionAnswer {
  readonly items: readonly SnippetCompletion[];
  /** VS Code should ask again as the user types (the host sent the best few of more). */
  readonly incomplete: boolean;
  /** What an accepted item replaces before the cursor; undefined with no items. */
  readonly typed: string | undefined;
}

/** The whole of a provider call apart from VS Code's types: undefined offers nothing. */
export async function provideSnippets(input: CompletionInput, settings: CompletionSettings, source: CandidateSource, signal: AbortSignal): Promise<CompletionAnswer | undefined> {
  const typed = typedQuery(input, settings);
  if (typed === undefined) return undefined;
  if (typed === 'later') return { items: [], incomplete: true, typed: undefined };
  const reply = await source(typed.query, input.languageId, signal);
  return { items: completionItems(typed, reply, settings.triggerPrefix), incomplete: true, typed: typed.typed };
}
