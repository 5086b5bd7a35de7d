/**
 * ask_pieces_ltm, answered from Satchel's library without any language model: the question (with
 * its topics and related questions) searched by Satchel's hybrid search over snippets and
 * memories, and by words over conversations' messages; a time phrase in it ("yesterday", "last
 * week") narrows to that span and brings the memories written then. Memories come back as
 * `summaries` (what Pieces keeps them as), snippets and messages as `events`, each with its score
 * and `combined_string`; a memory whose cited files changed says it may be stale.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../../core/satchel.ts';
import { RecordSearch, within, type Window } from '../../../core/search/recordSearch.ts';
import { temporalRanges } from '../../../core/search/temporalRange.ts';
import type { ExchangeSlots } from '../exchangeSlots.ts';
import { toolError } from '../toolResults.ts';
import { throughDoor } from './agentDoor.ts';
import { jsonResult } from './piecesInputs.ts';
import { RECALL_CHARS, summaryObject } from './memoryObjects.ts';

const SUMMARIES = 10;
const EVENTS = 15;
const EVENT_CHARS = 1_500;

const texts = (what: string) => z.array(z.string().max(1000)).max(32).optional().describe(what);

export function registerAskLtm(server: McpServer, core: Satchel, searches: ExchangeSlots): void {
  server.registerTool(
    'ask_pieces_ltm',
    {
      title: "Ask the user's long-term memory (Satchel)",
      description:
        "Ask about the user's past work: answered from their Satchel library (memories agents saved with create_pieces_memory, " +
        'saved snippets and Copilot conversations), ranked by hybrid search, on this machine. Returns JSON with `summaries` ' +
        '(memories, each with `may_be_stale` when a file it cites changed since) and `events` (snippets and messages), each with ' +
        '`score` and `combined_string`. A time phrase in the question ("yesterday", "last week") narrows to that span. No LLM is called: ' +
        'read the matches and answer from them.',
      inputSchema: {
        question: z.string().min(1).max(2000).describe('The question, in natural language.'),
        chat_llm: z.string().max(200).describe('The model the client would answer with (kept for Pieces configs; Satchel calls no model).'),
        topics: texts('Keywords to narrow the search.'),
        open_files: texts('Files open in the editor (their names add to the search).'),
        application_sources: texts('Applications to narrow to (Satchel records none: ignored).'),
        related_questions: texts('More questions searched with it.'),
        connected_client: z.string().max(200).optional().describe('The asking client, e.g. "Cursor".'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      throughDoor(core, 'ask_pieces_ltm', args.question, async () => {
        const answer = await searches.run(() => ask(core, args));
        return answer === undefined ? toolError('The search was cancelled.') : jsonResult(answer);
      }),
  );
}

interface AskArgs {
  readonly question: string;
  readonly topics?: readonly string[] | undefined;
  readonly open_files?: readonly string[] | undefined;
  readonly related_questions?: readonly string[] | undefined;
}

async function ask(core: Satchel, args: AskArgs): Promise<Record<string, unknown>> {
  const time = temporalRanges(args.question);
  const range = time.ranges[0];
  const window: Window = range ? { createdFrom: range.from, createdTo: range.to } : {};
  const fileWords = (args.open_files ?? []).map((path) => path.split(/[\\/]/).pop() ?? '').filter(Boolean);
  // The words of the question without the time phrase: "yesterday" matches no note.
  const words = [range ? args.question.replace(range.text, ' ') : args.question, ...(args.topics ?? []), ...(args.related_questions ?? []), ...fileWords].join(' ').trim();
  const plan = await core.recall.plan(words);
  const found = words === '' ? [] : core.assets.searches.scoredIds(words, { limit: 60, semantic: plan.semantic });
  const memoryIds = core.memories.facts.memoriesAmong(found.map((hit) => hit.id));
  const scores = new Map(found.map((hit) => [hit.id, hit.score]));
  const inTime = (id: string): boolean => {
    if (!range) return true;
    const asset = core.assets.get(id, { transferables: false });
    return within(asset.created.value, asset.updated.value, window);
  };
  const memoryHits = found.filter((hit) => memoryIds.has(hit.id) && inTime(hit.id)).map((hit) => hit.id);
  // A question about a time span brings that span's memories even where no word matched.
  if (range) for (const id of core.memories.newest(SUMMARIES, window)) if (!memoryHits.includes(id)) memoryHits.push(id);
  const views = await core.memories.views(memoryHits.slice(0, SUMMARIES), RECALL_CHARS);
  const summaries = views.map((view) => ({
    ...summaryObject(view),
    score: scores.get(view.id) ?? 0.5,
    combined_string: `${view.title}\n\n${view.text}${view.staleNote !== undefined ? `\n\n(This memory ${view.staleNote}.)` : ''}`,
  }));
  const snippetIds = found.filter((hit) => !memoryIds.has(hit.id) && inTime(hit.id)).map((hit) => hit.id).slice(0, EVENTS);
  const snippets = core.assets.summaries(snippetIds).map((summary) => ({
    id: summary.id,
    type: 'SNIPPET',
    name: summary.name,
    language: summary.language,
    tags: summary.tags,
    created: summary.created,
    score: scores.get(summary.id) ?? 0,
    combined_string: `${summary.name}\n${summary.text.slice(0, EVENT_CHARS)}`,
    next_step: `get_snippet with id ${summary.id} reads it whole.`,
  }));
  const messageHits = words === '' ? [] : new RecordSearch(core.context.database).messages(words, EVENTS, window);
  const texts = core.conversations.reads.messageTexts(messageHits.map((hit) => hit.id), EVENT_CHARS);
  const messages = messageHits.map((hit) => {
    const text = texts.get(hit.id)?.text ?? '';
    return {
      id: hit.id,
      type: 'CONVERSATION_MESSAGE',
      conversation: hit.conversation,
      created: hit.created,
      score: hit.score * 0.8,
      combined_string: text,
    };
  });
  const events = [...snippets, ...messages].sort((a, b) => b.score - a.score).slice(0, EVENTS);
  const stale = views.filter((view) => view.stale).length;
  const notes = [
    'Answered by Satchel from the local library (memories, snippets, conversations); no language model was called.',
    plan.mode.mode === 'hybrid' ? 'Ranked by meaning and words.' : `Ranked by words only: ${plan.mode.reason}.`,
    ...(range ? [`Narrowed to ${range.from} – ${range.to} ("${range.text}").`] : []),
    ...(time.note !== undefined ? [time.note] : []),
    ...(stale > 0 ? [`${stale} memor${stale === 1 ? 'y' : 'ies'} may be stale: files they cite changed since they were written.`] : []),
    ...(summaries.length + events.length === 0 ? ['Nothing in the library matches.'] : []),
  ];
  return { question: args.question, summaries, events, note: notes.join(' ') };
}
