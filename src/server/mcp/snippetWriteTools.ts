/**
 * The MCP tools that write: save a snippet, update one, delete one. Each goes through
 * core.agentWrites, so it is the agent's write: marked among the agent changes the user reviews
 * (or, while agent writes wait for review, a proposal that counts for nothing until accepted),
 * durable before the answer, and within the store's limits like every other door. An update or a
 * delete names the revision the agent last read and is refused, with the revision to read again,
 * when the snippet changed since.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Satchel } from '../../core/satchel.ts';
import type { Author } from '../../core/history/authors.ts';
import { RevisionConflictError } from '../../core/errors.ts';
import { LIMITS, limitMessage, type LimitKind } from '../../core/limits.ts';
import type { AgentWriteResult } from '../../core/agents/agentWrites.ts';
import { languageName, savedOf } from './snippetViews.ts';
import { guarded, toolError, toolResult } from './toolResults.ts';
import { agentName, agentView, findingFacts, keptText, restoredEdit } from '../agentSecrets.ts';

/** A zod bound at one of the store's limits, refused with the store's own message (which names the size sent). */
function atMost(kind: LimitKind) {
  const size = (input: unknown): number => (typeof input === 'string' || Array.isArray(input) ? input.length : 0);
  return [LIMITS[kind], { error: (issue: { readonly input?: unknown }) => limitMessage(kind, size(issue.input)) }] as const;
}

// The store's limits (core/limits.ts), stated to the agent in the schemas; core enforces them anyway.
const content = z
  .string()
  .min(1)
  .max(...atMost('contentChars'))
  .refine((text) => text.trim() !== '', 'content is only whitespace');
const name = z.string().min(1).max(...atMost('nameChars'));
const tags = z.array(z.string().min(1).max(...atMost('tagChars'))).max(...atMost('tagsPerAsset'));
const language = z.string().min(1).max(64);
const id = z.string().min(1).max(200).describe('The snippet id (from search_snippets, list_recent_snippets or get_snippet).');
const expectedRevision = z
  .string()
  .min(1)
  .max(64)
  .describe('The revision of the snippet you last read (get_snippet, search_snippets and list_recent_snippets give it). If the snippet changed since, nothing is written.');

const saveInput = {
  content: content.describe('The code or text to save, exactly as it should be stored.'),
  name: name.optional().describe('A short descriptive title. Default: derived from the code (its first declaration or line).'),
  tags: tags.optional().describe('Tags to file it under, e.g. ["http", "retry"].'),
  language: language.optional().describe('Its language ("TypeScript", "python", "ts"…); detected from the content when omitted.'),
  websites: z
    .array(z.url().max(...atMost('urlChars')))
    .max(...atMost('websitesPerAsset'))
    .optional()
    .describe('Related URLs (documentation, the source it came from).'),
};

const updateInput = {
  id,
  expected_revision: expectedRevision,
  content: content.optional().describe('The whole new content (not a diff), exactly as it should be stored.'),
  name: name.optional().describe('A new title.'),
  tags: tags.optional().describe("The snippet's whole new set of tags: it replaces the current one (repeat the tags to keep)."),
  language: language.optional().describe('Its language, when it is stored as the wrong one ("TypeScript", "python", "ts"…).'),
  description: z
    .string()
    .max(...atMost('annotationChars'))
    .optional()
    .describe('A description of what the snippet does and when to use it; "" removes it.'),
};

const status = z.enum(['saved', 'updated', 'unchanged', 'deleted', 'proposed']);
const secretsOutput = z
  .array(z.object({ label: z.string(), category: z.string(), field: z.string(), line: z.number() }))
  .optional()
  .describe('Secrets found in what was written: kept on this machine and flagged; agents see a placeholder instead of each value.');
const changeId = z.string().optional().describe("The id of this change in the user's list of agent changes.");

/** Which tool to retry with, and how, after a conflict. */
function staleText(core: Satchel, error: RevisionConflictError, tool: string): string {
  const current = core.history.list(error.assetId).revisions.find((revision) => revision.id === error.current);
  const by = current ? ` (${current.changes.join(', ')} by ${current.author.name} at ${current.created})` : '';
  return (
    `Snippet ${error.assetId} changed since revision ${error.expected}: its current revision is ${error.current}${by}. Nothing was written. ` +
    `Read it again with get_snippet, apply your change to what it holds now, and call ${tool} again with expected_revision "${error.current}".`
  );
}

/** A tool's body whose stale-revision refusal tells the agent how to retry. */
function conditional(core: Satchel, tool: string, body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  return guarded(core.context.logger, tool, async () => {
    try {
      return await body();
    } catch (error) {
      if (error instanceof RevisionConflictError) return toolError(staleText(core, error, tool));
      throw error;
    }
  });
}

const PROPOSED = "It waits for the user's review in Satchel (Agent changes) and counts for nothing until they accept it: searches will not find it yet. Do not make it again.";

function proposedText(what: string, result: AgentWriteResult): string {
  return `Proposed ${what} "${result.name}"${result.asset ? ` (id ${result.asset})` : ''}. ${PROPOSED}`;
}

/** `author`: the MCP client whose writes these tools make (mcpClients.ts), asked at each call (an SSE session learns it after connecting). */
export function registerSnippetWriteTools(server: McpServer, core: Satchel, author: () => Author): void {
  server.registerTool(
    'save_snippet',
    {
      title: 'Save a snippet',
      description:
        "Save code to the user's Satchel snippet store, where it shows in their editor and every agent on the machine can find it. " +
        'Save reusable code the user asked to keep; call check_snippet_saved first to avoid duplicates. The language is detected when not given. ' +
        'To change a saved snippet, use update_snippet instead of saving a copy.',
      inputSchema: saveInput,
      outputSchema: {
        status,
        id: z.string().optional().describe('Absent while the save waits for review.'),
        name: z.string(),
        language: z.string().optional(),
        tags: z.array(z.string()),
        revision: z.string().optional(),
        change: changeId,
        secrets: secretsOutput,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(core.context.logger, 'save_snippet', async () => {
        const result = await core.agentWrites.save(args, author());
        const change = result.change !== undefined ? { change: result.change } : {};
        // A value in what the agent wrote is kept, and the agent is told so (issue 32); the reply shows placeholders.
        const view = await agentView(core, { code: args.content, name: result.saved?.name ?? result.name }, result.saved?.id);
        const kept = keptText(view.findings);
        const flagged = kept !== undefined ? { secrets: findingFacts(view.findings) } : {};
        const said = (text: string): string => (kept !== undefined ? `${text} ${kept}` : text);
        if (result.status === 'proposed') {
          return toolResult(said(proposedText('saving', { ...result, name: view.texts.name })), { status: 'proposed', name: view.texts.name, tags: args.tags ?? [], ...change, ...flagged });
        }
        const saved = { ...savedOf(result.saved!), name: view.texts.name };
        return toolResult(said(`Saved "${saved.name}" (id ${saved.id}, ${languageName(saved.language)}, revision ${result.revision}).`), {
          status: 'saved',
          ...saved,
          revision: result.revision,
          ...change,
          ...flagged,
        });
      }),
  );

  server.registerTool(
    'update_snippet',
    {
      title: 'Update a saved snippet',
      description:
        "Change one of the user's saved snippets: its content, name, tags, language or description. Use it when the user asks you to fix, " +
        'improve, rename, re-tag or describe a snippet, rather than saving a copy. Read the snippet first (get_snippet) and pass the revision ' +
        'you read as expected_revision: if it changed since, nothing is written and you are told its current revision; read it again and ' +
        'redo your change on what it holds now. Give only the fields to change. Every change is kept in the snippet\'s history and listed ' +
        'for the user, who may revert it; when the user reviews agent changes first, it is proposed and counts once they accept it.',
      inputSchema: updateInput,
      outputSchema: { status, id: z.string(), name: z.string(), revision: z.string().optional().describe('The revision after the change (not for a proposal).'), change: changeId, secrets: secretsOutput },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ id, expected_revision, ...asked }) =>
      conditional(core, 'update_snippet', async () => {
        // The agent read the snippet with placeholders: where it wrote one back, the stored value stays (issue 32).
        const edit = await restoredEdit(core, id, asked);
        const result = core.agentWrites.update(id, edit, { author: author(), expectedRevision: expected_revision });
        const written = await agentView(core, { code: edit.content ?? '', name: edit.name ?? '', description: edit.description }, id);
        const name = await agentName(core, result.name, id);
        const kept = keptText(written.findings);
        const said = (text: string): string => (kept !== undefined ? `${text} ${kept}` : text);
        const facts = {
          id,
          name,
          ...(result.revision !== undefined ? { revision: result.revision } : {}),
          ...(result.change !== undefined ? { change: result.change } : {}),
          ...(kept !== undefined ? { secrets: findingFacts(written.findings) } : {}),
        };
        if (result.status === 'proposed') return toolResult(said(proposedText('an update of', { ...result, name })), { status: 'proposed', ...facts });
        if (result.status === 'unchanged') return toolResult(`"${name}" (id ${id}) already was as asked: nothing changed (revision ${result.revision}).`, { status: 'unchanged', ...facts });
        return toolResult(said(`Updated "${name}" (id ${id}); its revision is now ${result.revision}. The user can see and revert the change.`), { status: 'updated', ...facts });
      }),
  );

  server.registerTool(
    'delete_snippet',
    {
      title: 'Delete a saved snippet',
      description:
        "Delete one of the user's saved snippets, when the user asks you to remove it (a duplicate, obsolete code). It goes to the trash, " +
        'where the user can restore it. Pass the revision you last read as expected_revision (get_snippet gives it): if the snippet changed ' +
        'since, nothing is deleted and you are told its current revision. To replace a snippet\'s code, use update_snippet (it keeps the history).',
      inputSchema: { id, expected_revision: expectedRevision },
      outputSchema: { status, id: z.string(), name: z.string(), change: changeId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ id, expected_revision }) =>
      conditional(core, 'delete_snippet', async () => {
        const name = await agentName(core, core.assets.exists(id) ? (core.assets.get(id, { transferables: false }).name ?? '') : '', id);
        const result = core.agentWrites.delete(id, { author: author(), expectedRevision: expected_revision });
        const facts = { id, name, ...(result.change !== undefined ? { change: result.change } : {}) };
        if (result.status === 'proposed') return toolResult(proposedText('deleting', { ...result, name: facts.name }), { status: 'proposed', ...facts });
        return toolResult(`Deleted "${facts.name}" (id ${id}): it is in the user's trash, and they can restore it.`, { status: 'deleted', ...facts });
      }),
  );
}
