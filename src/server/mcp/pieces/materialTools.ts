/**
 * Pieces' material tools over what Satchel holds (materials.ts): a full-text search and a batch
 * snapshot per kind, material_identifiers, the vector searches, and extract_temporal_range. The
 * kinds Satchel does not record get the same tools answering empty (unrecordedTools.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../../core/satchel.ts';
import { RecordSearch } from '../../../core/search/recordSearch.ts';
import { temporalRanges, MAX_TEMPORAL_QUERY_CHARS } from '../../../core/search/temporalRange.ts';
import type { ExchangeSlots } from '../exchangeSlots.ts';
import { toolError } from '../toolResults.ts';
import { throughDoor } from './agentDoor.ts';
import { created, identifiers, jsonResult, limitOf, query, unrecordedNote, updated, windowOf } from './piecesInputs.ts';
import { materialsOf, type Found, type Material } from './materials.ts';
import { UNRECORDED_TYPES } from './unrecordedTools.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Characters of each matched message a conversation search shows. */
const MATCHED_CHARS = 1_000;
export const ANNOTATION_TYPES = ['SUMMARY', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'EXPLANATION', 'CODE', 'GENERATED_CODE', 'GIT_COMMIT', 'KNOWLEDGE_GRAPH'] as const;

export function registerMaterialTools(server: McpServer, core: Satchel, searches: ExchangeSlots): void {
  const materials = materialsOf(core);
  const byType = new Map(materials.map((material) => [material.type, material]));

  /** Runs a search on the line of search work; undefined when the client left while it waited. */
  const searched = <T>(work: () => Promise<T> | T): Promise<T | undefined> => searches.run(async () => work());

  for (const material of materials) {
    if (material.search) {
      const name = `${material.prefix}_full_text_search`;
      const isConversations = material.type === 'CONVERSATIONS';
      const max = material.type === 'ANNOTATIONS' ? 200 : isConversations ? 50 : 100;
      const fallback = material.type === 'WORKSTREAM_SUMMARIES' ? 10 : material.type === 'ANNOTATIONS' ? 50 : 25;
      server.registerTool(
        name,
        {
          title: `Search ${material.what} (Satchel)`,
          description:
            `Search the user's ${material.what} in Satchel by words. Returns JSON: \`results\`, each the full \`${material.key}\` object with ` +
            '`similarity` (0–1) and `exact` (the whole query occurs). Optional `created` / `updated` ranges narrow by time.' +
            (isConversations ? ' Each conversation comes without its messages, with `matched_messages` (the messages that hold the words).' : ''),
          inputSchema: {
            query: query(1000),
            limit: limitOf(max, fallback),
            created,
            updated,
            ...(material.type === 'ANNOTATIONS' ? { annotation_type: z.enum(ANNOTATION_TYPES).optional().describe('Only annotations of this type.') } : {}),
          },
          annotations: READ_ONLY,
        },
        (args) =>
          throughDoor(core, name, args.query, async () => {
            const window = windowOf(args.created, args.updated);
            const limit = args.limit ?? fallback;
            const annotationType = 'annotation_type' in args && typeof args.annotation_type === 'string' ? args.annotation_type : undefined;
            const results = await searched(async () =>
              isConversations ? conversationResults(core, args.query, limit, window) : objectResults(material, await material.search!(args.query, limit, window, annotationType)),
            );
            if (results === undefined) return toolError('The search was cancelled.');
            return jsonResult({ query: args.query, count: results.length, results, ...(annotationType ? { annotation_type: annotationType } : {}) });
          }),
      );
    }

    const snapshotName = `${material.prefix}_batch_snapshot`;
    server.registerTool(
      snapshotName,
      {
        title: `Read ${material.what} by id (Satchel)`,
        description: `The full objects of ${material.what} by identifier (1–100, from a search or material_identifiers); \`missing_ids\` names those not found.`,
        inputSchema: { identifiers },
        annotations: READ_ONLY,
      },
      (args) =>
        throughDoor(core, snapshotName, undefined, async () => {
          const ids = [...new Set(args.identifiers)];
          const found = await material.snapshot(ids);
          const items = ids.filter((id) => found.has(id)).map((id) => found.get(id)!);
          const missing = ids.filter((id) => !found.has(id));
          return jsonResult({ material_type: material.type, count: items.length, requested: ids.length, items, missing_ids: missing });
        }),
    );
  }

  const allTypes = [...materials.map((material) => material.type), ...UNRECORDED_TYPES.map((kind) => kind.type)] as [string, ...string[]];
  server.registerTool(
    'material_identifiers',
    {
      title: 'List material ids (Satchel)',
      description:
        'Identifiers of one kind of material, newest first, narrowed by `created` / `updated` ranges; read them with the kind\'s ' +
        '*_batch_snapshot tool. WORKSTREAM_SUMMARIES are the memories saved with create_pieces_memory.',
      inputSchema: {
        material_type: z.enum(allTypes).describe('The kind of material.'),
        limit: limitOf(1000, 100),
        created,
        updated,
        configurations: z.record(z.string(), z.unknown()).optional().describe('Filters for WORKSTREAM_EVENTS (Satchel records none).'),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      throughDoor(core, 'material_identifiers', undefined, async () => {
        const limit = args.limit ?? 100;
        const material = byType.get(args.material_type);
        const unrecorded = UNRECORDED_TYPES.find((kind) => kind.type === args.material_type);
        if (!material) {
          return jsonResult({ material_type: args.material_type, count: 0, identifiers: [], limit, next_step: unrecordedNote(unrecorded?.what ?? args.material_type) });
        }
        const ids = await material.ids(limit, windowOf(args.created, args.updated));
        return jsonResult({ material_type: material.type, count: ids.length, identifiers: ids, limit, next_step: `Read them with ${material.prefix}_batch_snapshot (up to 100 at a time).` });
      }),
  );

  registerVectorSearches(server, core, searches, byType);

  server.registerTool(
    'extract_temporal_range',
    {
      title: 'Time phrases as UTC ranges',
      description:
        'Turns time phrases in a question ("yesterday", "last week", "the past 3 hours", "last Tuesday afternoon") into UTC ranges ' +
        "in the user's time zone, to pass as `created` / `updated` to the other tools. An empty list when there is no time phrase; " +
        'ranges reaching past now end now (`processing_note`).',
      inputSchema: { query: z.string().min(1).max(MAX_TEMPORAL_QUERY_CHARS).describe('Text with time phrases.') },
      annotations: READ_ONLY,
    },
    (args) =>
      throughDoor(core, 'extract_temporal_range', undefined, () => {
        const found = temporalRanges(args.query);
        const ranges = found.ranges.map((range) => ({ from: range.from, to: range.to }));
        return jsonResult({ query: args.query, count: ranges.length, ranges, ...(found.note !== undefined ? { processing_note: found.note } : {}) });
      }),
  );
}

function objectResults(material: Material, found: readonly Found[]): Promise<Array<Record<string, unknown>>> {
  return Promise.resolve(material.snapshot(found.map((hit) => hit.id))).then((objects) =>
    found.filter((hit) => objects.has(hit.id)).map((hit) => ({ [material.key]: objects.get(hit.id), similarity: round(hit.score), exact: hit.exact })),
  );
}

/** Conversations whose name or messages hold the words, each with the messages that do. */
function conversationResults(core: Satchel, text: string, limit: number, window: ReturnType<typeof windowOf>): Array<Record<string, unknown>> {
  const records = new RecordSearch(core.context.database);
  const byName = records.search('conversation', text, limit, window);
  const messages = records.messages(text, limit * 10, window);
  const scores = new Map<string, { score: number; exact: boolean }>();
  for (const hit of byName) scores.set(hit.id, { score: hit.score, exact: hit.exact });
  const matched = new Map<string, Array<Record<string, unknown>>>();
  const texts = core.conversations.reads.messageTexts(messages.map((hit) => hit.id), MATCHED_CHARS);
  for (const hit of messages) {
    const list = matched.get(hit.conversation) ?? [];
    if (list.length < 5) list.push({ id: hit.id, score: round(hit.score), text: texts.get(hit.id)?.text ?? '' });
    matched.set(hit.conversation, list);
    const held = scores.get(hit.conversation);
    if (!held || held.score < hit.score) scores.set(hit.conversation, { score: hit.score * 0.9, exact: held?.exact === true || hit.exact });
  }
  const ranked = [...scores].sort((a, b) => b[1].score - a[1].score).slice(0, limit);
  const out: Array<Record<string, unknown>> = [];
  for (const [id, { score, exact }] of ranked) {
    let conversation;
    try {
      conversation = core.conversations.reads.get(id, false);
    } catch {
      continue;
    }
    const { messages: _messages, ...withoutMessages } = conversation;
    const found = matched.get(id) ?? [];
    out.push({ conversation: withoutMessages, matched_messages: found, matched_annotations: [], message_count: found.length, similarity: round(score), exact });
  }
  return out;
}

function registerVectorSearches(server: McpServer, core: Satchel, searches: ExchangeSlots, byType: ReadonlyMap<string, Material>): void {
  const vectorInput = {
    query: z.string().min(1).max(100_000).describe('What to look for, in natural language.'),
    threshold: z.number().min(0).max(1).optional().describe('Lowest score kept (0–1).'),
    limit: limitOf(100, 25),
    created,
    updated,
  };
  const run = async (type: string, text: string, threshold: number | undefined, limit: number, window: ReturnType<typeof windowOf>): Promise<Record<string, unknown>> => {
    const material = byType.get(type);
    if (!material) {
      const unrecorded = UNRECORDED_TYPES.find((kind) => kind.type === type);
      return { query: text, material_type: type, count: 0, results: [], next_steps: unrecordedNote(unrecorded?.what ?? type) };
    }
    const plan = type === 'WORKSTREAM_SUMMARIES' ? await core.recall.plan(text) : undefined;
    const found =
      type === 'WORKSTREAM_SUMMARIES'
        ? core.assets.searches.scoredIds(text, { limit, semantic: plan?.semantic, kept: (id) => core.memories.isMemory(id) })
        : await material.search!(text, limit, window);
    const results = found.filter((hit) => threshold === undefined || hit.score >= threshold).map((hit) => ({ identifier: hit.id, score: round(hit.score) }));
    const how =
      plan?.mode.mode === 'hybrid'
        ? 'Ranked by meaning and words.'
        : plan
          ? `Ranked by words only: ${plan.mode.reason}.`
          : `Satchel keeps no vectors for ${material.what}: matched by words.`;
    return { query: text, material_type: type, count: results.length, results, next_steps: `${how} Read the objects with ${material.prefix}_batch_snapshot.` };
  };
  const describe = (what: string) => ({
    title: `Search ${what} by meaning (Satchel)`,
    description: `Search ${what} by meaning; returns \`results\` of \`identifier\` and \`score\` (no objects): read them with the matching *_batch_snapshot tool.`,
    annotations: READ_ONLY,
  });
  type VectorArgs = { query: string; threshold?: number | undefined; limit?: number | undefined; created?: Range; updated?: Range };
  const answer = (name: string, type: string, args: VectorArgs) =>
    throughDoor(core, name, args.query, async () => {
      const found = await searches.run(() => run(type, args.query, args.threshold, args.limit ?? 25, windowOf(args.created, args.updated)));
      return found === undefined ? toolError('The search was cancelled.') : jsonResult(found);
    });
  server.registerTool(
    'materials_vector_search',
    { ...describe('one kind of material'), inputSchema: { ...vectorInput, material_type: z.enum(['WORKSTREAM_SUMMARIES', 'HINTS', 'TAGS', 'WORKSTREAM_EVENTS']).describe('The kind to search.') } },
    (args) => answer('materials_vector_search', args.material_type, args),
  );
  for (const [name, type, what] of [
    ['workstream_summaries_vector_search', 'WORKSTREAM_SUMMARIES', 'memories (workstream summaries)'],
    ['tags_vector_search', 'TAGS', 'tags'],
    ['hints_vector_search', 'HINTS', 'hints'],
    ['workstream_events_vector_search', 'WORKSTREAM_EVENTS', 'workstream events'],
  ] as const) {
    server.registerTool(name, { ...describe(what), inputSchema: vectorInput }, (args) => answer(name, type, args));
  }
}

type Range = { readonly from?: string | undefined; readonly to?: string | undefined } | undefined;

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
