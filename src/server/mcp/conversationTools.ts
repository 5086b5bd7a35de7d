/** The conversation tools of the MCP server: list conversations, read one. Reads only. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../core/satchel.ts';
import type { Conversation } from '../../core/wire.ts';
import { textOfString } from '../../core/assets/content.ts';
import { guarded, toolResult } from './toolResults.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

interface ConversationSummary {
  readonly id: string;
  readonly name: string;
  readonly messages: number;
  readonly snippets: string[];
  readonly updated: string;
}

function summaryOf(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    name: conversation.name ?? '',
    messages: conversation.messages.iterable.length,
    snippets: (conversation.assets?.iterable ?? []).map((asset) => asset.id),
    updated: conversation.updated.value,
  };
}

export function registerConversationTools(server: McpServer, core: Satchel): void {
  const logger = core.context.logger;

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description:
        "The user's Satchel conversations (chats with the local model, kept with the snippets they discuss), most recently " +
        'updated first: id, name, message count and linked snippet ids. Read one with read_conversation.',
      inputSchema: { limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many at most (default ${DEFAULT_LIMIT}).`) },
      outputSchema: {
        conversations: z.array(
          z.object({ id: z.string(), name: z.string(), messages: z.number(), snippets: z.array(z.string()), updated: z.string() }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'list_conversations', () => {
        const conversations = core.conversations
          .snapshot(false)
          .iterable.map(summaryOf)
          .sort((a, b) => b.updated.localeCompare(a.updated))
          .slice(0, args.limit ?? DEFAULT_LIMIT);
        const text =
          conversations.length === 0
            ? 'There are no conversations.'
            : conversations
                .map((c) => `- ${c.name || '(untitled)'} (id ${c.id}, ${c.messages} message${c.messages === 1 ? '' : 's'}, updated ${c.updated})`)
                .join('\n');
        return toolResult(text, { conversations });
      }),
  );

  server.registerTool(
    'read_conversation',
    {
      title: 'Read a conversation',
      description: 'Every message of one conversation by id (from list_conversations), oldest first, with the ids of the snippets linked to it.',
      inputSchema: { id: z.string().min(1).max(200).describe('The conversation id.') },
      outputSchema: {
        id: z.string(),
        name: z.string(),
        snippets: z.array(z.string()),
        messages: z.array(z.object({ id: z.string(), role: z.string(), created: z.string(), text: z.string() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'read_conversation', () => {
        const conversation = core.conversations.get(args.id, true);
        const messages = conversation.messages.iterable.map((entry) => ({
          id: entry.id,
          role: entry.reference?.role ?? 'UNKNOWN',
          created: entry.reference?.created.value ?? '',
          text: textOfString(entry.reference?.fragment?.string) ?? '',
        }));
        const snippets = (conversation.assets?.iterable ?? []).map((asset) => asset.id);
        const lines = [`# ${conversation.name || '(untitled)'}`, `id: ${conversation.id}`];
        if (snippets.length > 0) lines.push(`snippets: ${snippets.join(', ')}`);
        for (const message of messages) lines.push('', `## ${message.role.toLowerCase()} (${message.created})`, message.text);
        return toolResult(lines.join('\n'), { id: conversation.id, name: conversation.name ?? '', snippets, messages });
      }),
  );
}
