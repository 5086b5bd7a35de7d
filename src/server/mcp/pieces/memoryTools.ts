/**
 * The tools that write and read memories: Pieces' create_pieces_memory (its parameters, on the
 * Pieces paths), and Satchel's own save_memory and recall_memories (on every path). A memory is
 * the agent's write like a saved snippet: marked among the agent changes, or a proposal while
 * agent writes wait for review; its cited files are stamped when it is written and checked when it
 * is recalled.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../../core/satchel.ts';
import { authorOf, type Author } from '../../../core/history/authors.ts';
import type { AgentSaveResult } from '../../../core/agents/agentWrites.ts';
import { MAX_MEMORY_FILES, MAX_MEMORY_LINKS, MAX_PATH_CHARS, type MemoryInput } from '../../../core/memories/memoryInputs.ts';
import { LIMITS } from '../../../core/limits.ts';
import type { ExchangeSlots } from '../exchangeSlots.ts';
import { toolError, toolResult } from '../toolResults.ts';
import { throughDoor } from './agentDoor.ts';
import { RECALL_CHARS, summaryObject } from './memoryObjects.ts';
import { agentView, keptText } from '../../agentSecrets.ts';

const title = z.string().min(1).max(LIMITS.nameChars);
const text = z.string().min(1).max(LIMITS.contentChars);
const project = z.string().max(MAX_PATH_CHARS).optional().describe('Absolute path of the project root.');
const files = z.array(z.string().min(1).max(MAX_PATH_CHARS)).max(MAX_MEMORY_FILES).optional().describe(
  `Absolute paths (or relative to project) of the files or folders it is about, at most ${MAX_MEMORY_FILES}: when it is recalled, Satchel checks whether they changed since.`,
);
const links = z.array(z.string().min(1).max(LIMITS.urlChars)).max(MAX_MEMORY_LINKS).optional().describe('URLs and other references (pull requests, issues, docs).');

/** The answer to a memory saved (or proposed): how to find it again (`recallWith`: the tools that do, on this path). */
function savedText(result: AgentSaveResult, name: string, recallWith: string): { text: string; facts: Record<string, unknown> } {
  if (result.status === 'proposed') {
    return {
      text: `Proposed the memory "${name}". It waits for the user's review in Satchel (Agent changes) and counts once they accept it. Do not save it again.`,
      facts: { status: 'proposed', name, ...(result.change !== undefined ? { change: result.change } : {}) },
    };
  }
  return {
    text:
      `Memory "${name}" saved in Satchel (id ${result.asset}). Recall it with ${recallWith}; if the files it cites change, ` +
      'it will be reported as possibly stale.',
    facts: { status: 'saved', id: result.asset, name, revision: result.revision, ...(result.change !== undefined ? { change: result.change } : {}) },
  };
}

export function registerCreatePiecesMemory(server: McpServer, core: Satchel, author: () => Author): void {
  server.registerTool(
    'create_pieces_memory',
    {
      title: 'Create a memory (Satchel)',
      description:
        "Save a detailed memory of work done (a decision, a debugging session, deployment notes) in the user's Satchel library, " +
        'to be recalled later by any agent with ask_pieces_ltm or the search tools. Give a title (summary_description), the Markdown ' +
        'narrative (summary), and the project, files and links it is about: the files are checked when it is recalled.',
      inputSchema: {
        summary_description: title.describe('A concise title (1–2 sentences).'),
        summary: text.describe('The memory in Markdown: what happened, what was decided and why.'),
        project,
        files,
        externalLinks: links,
        connected_client: z.string().max(200).optional().describe('The client saving it, e.g. "Cursor".'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      throughDoor(core, 'create_pieces_memory', undefined, async () => {
        const input: MemoryInput = {
          title: args.summary_description,
          summary: args.summary,
          project: args.project,
          files: args.files,
          links: args.externalLinks,
          client: args.connected_client ?? clientName(author()),
        };
        const result = await core.memories.save(input, author());
        const { text: answer, facts } = savedText(result, input.title.trim(), 'ask_pieces_ltm, workstream_summaries_full_text_search or recall_memories');
        return toolResult(await saidKept(core, answer, { code: input.summary, name: input.title }), facts);
      }),
  );
}

export function registerSatchelMemoryTools(server: McpServer, core: Satchel, author: () => Author, searches: ExchangeSlots): void {
  server.registerTool(
    'save_memory',
    {
      title: 'Save a memory',
      description:
        "Keep a note about the user's work in Satchel (a decision and why, how a bug was found, what a deploy needs), with the " +
        'project, files and links it is about, so that later sessions and other agents can recall it (recall_memories). Satchel ' +
        'checks the cited files on recall and says when the note may be stale. Save code itself with save_snippet instead.',
      inputSchema: {
        title: title.describe('A short title.'),
        text: text.describe('The note, in Markdown.'),
        project,
        files,
        links,
        tags: z.array(z.string().min(1).max(LIMITS.tagChars)).max(LIMITS.tagsPerAsset).optional().describe('Tags to file it under.'),
      },
      outputSchema: {
        status: z.enum(['saved', 'proposed']),
        id: z.string().optional().describe('Absent while the save waits for review.'),
        name: z.string(),
        revision: z.string().optional(),
        change: z.string().optional().describe("The id of this change in the user's list of agent changes."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      throughDoor(core, 'save_memory', undefined, async () => {
        const result = await core.memories.save(
          { title: args.title, summary: args.text, project: args.project, files: args.files, links: args.links, tags: args.tags, client: clientName(author()) },
          author(),
        );
        const { text: answer, facts } = savedText(result, args.title.trim(), 'recall_memories');
        return toolResult(await saidKept(core, answer, { code: args.text, name: args.title }), facts);
      }),
  );

  server.registerTool(
    'recall_memories',
    {
      title: 'Recall memories',
      description:
        'The memories saved in Satchel that match a query (by meaning and words), or the newest ones without a query, each with ' +
        'its project, files and links, and `may_be_stale` when a file it cites changed or went since it was written.',
      inputSchema: {
        query: z.string().max(1000).optional().describe('What the memory is about.'),
        limit: z.number().int().min(1).max(50).optional().describe('How many at most (default 10).'),
      },
      outputSchema: {
        memories: z
          .array(z.record(z.string(), z.unknown()))
          .describe('Each memory: id, name, its text (annotations), project, files with their state now, links, may_be_stale and stale_note.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      throughDoor(core, 'recall_memories', args.query, async () => {
        const limit = args.limit ?? 10;
        const query = args.query?.trim() ?? '';
        const ids = await searches.run(async () => {
          if (query === '') return core.memories.newest(limit);
          const plan = await core.recall.plan(query);
          return core.assets.searches.scoredIds(query, { limit, semantic: plan.semantic, kept: (id) => core.memories.isMemory(id) }).map((hit) => hit.id);
        });
        if (ids === undefined) return toolError('The search was cancelled.');
        const views = await core.memories.views(ids, RECALL_CHARS);
        const memories = views.map(summaryObject);
        const lines = views.map(
          (view) => `## ${view.title} (id ${view.id}, ${view.updated})${view.stale ? `\n**May be stale**: ${view.staleNote}.` : ''}\n${view.text}`,
        );
        return toolResult(lines.length === 0 ? 'No memory matches.' : lines.join('\n\n'), { memories });
      }),
  );
}

/** The client's own name, not the stand-in of a client that gave none. */
function clientName(author: Author): string | undefined {
  return author.name === '' || author.name === authorOf(author.kind).name ? undefined : author.name;
}

/** An agent that saved a memory holding a credential is told it was kept and flagged, as a snippet's save says (issue 32). */
async function saidKept(core: Satchel, answer: string, written: { code: string; name: string }): Promise<string> {
  const kept = keptText((await agentView(core, written)).findings);
  return kept === undefined ? answer : `${answer} ${kept}`;
}
