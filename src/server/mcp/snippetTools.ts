/**
 * The snippet tools of the MCP server that read: search, get, list recent, and ask whether code is
 * already saved (the ones that write are snippetWriteTools.ts's). Each is a thin call into core;
 * every snippet they name comes with its current revision, what an update or delete names.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../core/satchel.ts';
import type { Author } from '../../core/history/authors.ts';
import type { ClassificationSpecific } from '../../core/piecesTypes.ts';
import { specificFromLanguageName } from '../../core/classify/languages.ts';
import { checkSaved } from '../../core/connector/savedCheck.ts';
import { NotFoundError } from '../../core/errors.ts';
import { MAX_CONTENT_CHARS, detailOf, detailText, listingText, summaryOf, type SnippetSummary } from './snippetViews.ts';
import { registerSnippetWriteTools } from './snippetWriteTools.ts';
import type { ExchangeSlots } from './exchangeSlots.ts';
import { guarded, toolError, toolResult } from './toolResults.ts';
import { agentName, agentView, foundOnlyBySecret, scannedText } from '../agentSecrets.ts';
import { agentOpening } from './snippetOpening.ts';
import { hiddenWebsites } from '../../core/secrets/doorSecrets.ts';
import { SUMMARY_CHARS } from '../../core/assets/summaries.ts';
import type { SearchMode } from '../../wire/search.ts';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

const limit = z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many snippets at most (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}).`);
const language = z
  .string()
  .min(1)
  .max(64)
  .describe('A language name or file extension: "TypeScript", "python", "ts", "rs", "c++"…');
const tags = z.array(z.string().min(1).max(200)).max(32);

const summary = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string().describe('Stored classification, e.g. ts, py.'),
  tags: z.array(z.string()),
  moreTags: z.literal(true).optional().describe('Present when the snippet carries more tags than listed.'),
  preview: z.string(),
  created: z.string(),
  revision: z.string().describe('Its current revision: pass it as expected_revision to update_snippet or delete_snippet.'),
  memory: z.literal(true).optional().describe('Present when it is a memory (a note about the work, not code); recall_memories checks its files.'),
});
const snippetList = { snippets: z.array(summary) };
const searchOutput = {
  ...snippetList,
  search: z
    .object({ mode: z.enum(['hybrid', 'lexical']), model: z.string().optional(), vectors: z.number().optional(), reason: z.string().optional() })
    .optional()
    .describe('How a search with a query ran: by meaning and words (hybrid), or by words only (lexical) and why.'),
};

const searchInput = {
  query: z.string().max(1000).optional().describe('Words, identifiers or a phrase to look for in names, tags and code (typo-tolerant).'),
  tags: tags.optional().describe('Only snippets carrying every one of these tags.'),
  language: language.optional().describe('Only snippets in this language ("TypeScript", "python", "ts"…).'),
  limit,
};

/** The specific value of a language the agent named, or an error result naming what it can say. */
function resolveLanguage(name: string | undefined): { specific?: ClassificationSpecific; error?: string } {
  if (name === undefined) return {};
  const specific = specificFromLanguageName(name);
  return specific ? { specific } : { error: `Unknown language ${JSON.stringify(name)}. Give a name such as "TypeScript" or "Python", or an extension such as "ts" or "py".` };
}

function listed(snippets: readonly SnippetSummary[], empty: string, heading: string, mode?: SearchMode) {
  const text = snippets.length === 0 ? empty : `${heading}\n${listingText(snippets)}`;
  return toolResult(mode ? `${text}\n${modeLine(mode)}` : text, { snippets, ...(mode ? { search: mode } : {}) });
}

/** A line after the results saying how a search with a query ran, so an agent knows a miss may be a miss by words only. */
function modeLine(mode: SearchMode): string {
  return mode.mode === 'hybrid'
    ? `Searched by meaning and words (${mode.vectors} snippet${mode.vectors === 1 ? ' has' : 's have'} vectors).`
    : `Searched by words only: ${mode.reason}.`;
}

/**
 * Up to `limit` hits, each way of searching through the index that serves it: a query through the
 * search index (at most 100 hits, filtered by their tag links and language column), tags alone
 * through their links, a language alone through the listing index. None of them reads a document:
 * the summaries read names, tags and the opening of each text (a large one's stored head).
 */
async function search(
  core: Satchel,
  query: string,
  tags: readonly string[],
  language: ClassificationSpecific | undefined,
  limit: number,
): Promise<{ snippets: SnippetSummary[]; mode?: SearchMode }> {
  let ids: string[];
  let mode: SearchMode | undefined;
  // A query that names a value found in some snippet finds nothing (issue 32): an agent cannot confirm a secret by searching for it.
  if (query !== '' && core.assets.secrets.holdsKnownValue(query)) return { snippets: [] };
  if (query !== '') {
    // With an embedding model loaded, the search is hybrid: snippets are found by meaning too.
    const plan = await core.recall.plan(query);
    mode = plan.mode;
    ids = core.assets.searches.queryIds(query, { tags, language, limit, semantic: plan.semantic });
  } else if (tags.length > 0) {
    ids = core.assets.searches.taggedIds(tags, limit, language);
  } else {
    ids = core.assets.newest(limit, language);
  }
  return { snippets: await summariesOf(core, ids, query), ...(mode ? { mode } : {}) };
}

/**
 * The summaries of `ids` with their current revisions, what an agent names when it updates or
 * deletes one. The revisions are read first: should a write land between the two reads (the
 * import process writes on a connection of its own), the agent holds a revision older than what
 * it read, and its update is refused instead of overwriting a change it has not seen.
 */
export async function summariesOf(core: Satchel, ids: readonly string[], query = ''): Promise<SnippetSummary[]> {
  const revisions = new Map(ids.map((id) => [id, core.history.current(id)]));
  // Read in one synchronous step (no write between them); the door's scans come after.
  const read = core.assets.summaries(ids).map((summary) => ({ summary, scanned: summary.binary ? '' : scannedText(core, summary.id, { text: summary.text, chars: summary.chars }) }));
  const memories = core.memories.facts.memoriesAmong(ids);
  const shown: SnippetSummary[] = [];
  for (const { summary, scanned } of read) {
    // Each value as its placeholder (issue 32); a hit found only by a value is left out.
    const view = await agentView(core, { code: scanned, name: summary.name }, summary.id);
    if (query !== '' && foundOnlyBySecret(query, view, summary.tags)) continue;
    shown.push(summaryOf({ ...summary, name: view.texts.name, text: view.texts.code.slice(0, SUMMARY_CHARS) }, revisions.get(summary.id)!, memories.has(summary.id)));
  }
  return shown;
}

/**
 * Every snippet tool; `author`: the MCP client whose writes they make (mcpClients.ts); `searches`:
 * the line of search work the HTTP search routes take too (searchSlots.ts).
 */
export function registerSnippetTools(server: McpServer, core: Satchel, author: () => Author, searches: ExchangeSlots): void {
  const logger = core.context.logger;

  server.registerTool(
    'search_snippets',
    {
      title: 'Search saved snippets',
      description:
        "Search the user's saved code snippets in Satchel (offline, on this machine) by words, tags and language. " +
        'Returns the best matches with id, name, language, tags and a short preview; call get_snippet with an id for the full code. ' +
        'Give at least one of query, tags or language. Search before writing code the user may already have.',
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'search_snippets', async () => {
        const query = args.query?.trim() ?? '';
        const wantedTags = (args.tags ?? []).map((tag) => tag.trim()).filter(Boolean);
        const lang = resolveLanguage(args.language);
        if (lang.error) return toolError(lang.error);
        if (query === '' && wantedTags.length === 0 && !lang.specific) {
          return toolError('Give a query, tags or a language to search. To see the newest snippets, call list_recent_snippets.');
        }
        const searched = await searches.run(() => search(core, query, wantedTags, lang.specific, args.limit ?? DEFAULT_LIMIT));
        if (searched === undefined) return toolError('The search was cancelled.');
        const { snippets: found, mode } = searched;
        return listed(found, 'No saved snippet matches.', `${found.length} snippet${found.length === 1 ? '' : 's'} found:`, mode);
      }),
  );

  server.registerTool(
    'get_snippet',
    {
      title: 'Get a saved snippet',
      description:
        'The full content of one saved snippet by id (from search_snippets or list_recent_snippets), with its language, tags, ' +
        `related websites and the conversations it is linked to. Content beyond ${MAX_CONTENT_CHARS} characters is cut (truncated: true).`,
      inputSchema: { id: z.string().min(1).max(200).describe('The snippet id.') },
      outputSchema: {
        id: z.string(),
        name: z.string(),
        language: z.string(),
        languageName: z.string(),
        tags: z.array(z.string()),
        content: z.string(),
        truncated: z.boolean(),
        length: z.number(),
        binary: z.boolean(),
        created: z.string(),
        updated: z.string(),
        websites: z.array(z.object({ url: z.string(), name: z.string() })),
        conversations: z.array(z.object({ id: z.string(), name: z.string() })),
        revision: z.string().describe('Its current revision: pass it as expected_revision to update_snippet or delete_snippet.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'get_snippet', async () => {
        // The revision first (see summariesOf); the content read from the opening of its text: a 60 MB snippet is not parsed to show 256 KiB.
        if (!core.assets.exists(args.id)) throw new NotFoundError('asset', args.id);
        const revision = core.history.current(args.id);
        const asset = core.assets.get(args.id, { transferables: false });
        const opening = await agentOpening(core, args.id, asset.name ?? '');
        const shown = detailOf({ ...asset, name: opening.name }, opening, revision);
        // A website's URL may hold a value too (a webhook, a token in its query).
        const secrets = core.doorSecrets();
        const detail = secrets === undefined ? shown : { ...shown, websites: [...(await hiddenWebsites(shown.websites, secrets))] };
        return toolResult(detailText(detail), { ...detail });
      }),
  );

  server.registerTool(
    'list_recent_snippets',
    {
      title: 'List recent snippets',
      description: 'The most recently saved snippets, newest first, with id, name, language, tags and a short preview.',
      inputSchema: { limit },
      outputSchema: snippetList,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'list_recent_snippets', async () => {
        const snippets = await summariesOf(core, core.assets.newest(args.limit ?? DEFAULT_LIMIT));
        return listed(snippets, 'No snippets are saved yet.', `The ${snippets.length} newest snippet${snippets.length === 1 ? '' : 's'}:`);
      }),
  );

  server.registerTool(
    'check_snippet_saved',
    {
      title: 'Is this code already saved?',
      description:
        "Ask whether a piece of code is already in the user's snippets (near-duplicates count: renamed variables, changed whitespace). " +
        'Answers with the matching snippets and their similarity, or whether the code is worth saving.',
      inputSchema: { content: z.string().min(1).describe('The code to look for.') },
      outputSchema: {
        saved: z.boolean(),
        worthSaving: z.boolean(),
        reason: z.string().optional(),
        matches: z.array(z.object({ id: z.string(), name: z.string(), similarity: z.number() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'check_snippet_saved', async () => {
        const check = checkSaved(core.connector, core.assets, args.content);
        if (check.kind === 'saved') {
          const named = check.matches.map((match) => ({ id: match.assetId, name: core.assets.get(match.assetId, { transferables: false }).name ?? '', similarity: match.score }));
          const matches = await Promise.all(named.map(async (match) => ({ ...match, name: await agentName(core, match.name, match.id) })));
          const lines = matches.map((m) => `- ${m.name} (id ${m.id}, ${Math.round(m.similarity * 100)}% similar)`);
          return toolResult(`Already saved:\n${lines.join('\n')}`, { saved: true, worthSaving: false, matches });
        }
        if (check.kind === 'too_trivial') {
          const why = check.reason === 'no_code' ? 'has no code in it' : 'is too short';
          return toolResult(`Cannot tell: the text ${why} to compare with saved snippets reliably.`, {
            saved: false,
            worthSaving: false,
            reason: check.reason,
            matches: [],
          });
        }
        const text = check.worthSaving
          ? 'Not saved yet. It is substantial enough to be worth saving (save_snippet).'
          : 'Not saved yet. It is small; saving it is probably not worth it.';
        return toolResult(text, { saved: false, worthSaving: check.worthSaving, matches: [] });
      }),
  );

  registerSnippetWriteTools(server, core, author);
}
