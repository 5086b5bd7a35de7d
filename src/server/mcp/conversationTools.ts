/**
 * The conversation tools of the MCP server: list conversations, read one. Reads only. Both answer
 * what an agent can use, never the whole store: a list reads only the conversations it shows, and a
 * conversation is read a page of messages at a time, each cut to a preview (one of 288 MB was read
 * and encoded whole, and never answered).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Satchel } from '../../core/satchel.ts';
import { guarded, toolResult } from './toolResults.ts';
import { agentTexts } from '../agentSecrets.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Messages a read answers by default and at most. */
const DEFAULT_MESSAGES = 20;
const MAX_MESSAGES = 100;
/** Characters of each message a read shows: a long answer is a preview, with its length. */
const PREVIEW_CHARS = 4_000;
/** The messages a conversation's title is made from (its first question, or the first prose after it). */
const TITLED_FROM_MESSAGES = 2;

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
      guarded(logger, 'list_conversations', async () => {
        const recent = core.conversations.reads.recent(args.limit ?? DEFAULT_LIMIT);
        // A name holding a value shows its placeholder (issue 32), read with the first messages a title is
        // made from: one holding a key the first question holds, cut short, is hidden too.
        const names = await Promise.all(
          recent.map(async (c) => {
            const first = core.conversations.reads.messagePage(c.id, 0, TITLED_FROM_MESSAGES, PREVIEW_CHARS).messages;
            const [name = ''] = await agentTexts(core, [c.name ?? '', ...first.map((message) => message.text)]);
            return name;
          }),
        );
        const conversations = recent.map((c, index) => ({
          id: c.id,
          name: names[index]!,
          messages: c.messages,
          snippets: [...c.assets],
          updated: c.updated.value,
        }));
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
      description:
        'The messages of one conversation by id (from list_conversations), oldest first, a page at a time, with the ids of the ' +
        `snippets linked to it. Each message shows at most its first ${PREVIEW_CHARS} characters (\`chars\` is its full length). ` +
        'When there are more messages, `next_offset` is where the next page starts: call again with that offset.',
      inputSchema: {
        id: z.string().min(1).max(200).describe('The conversation id.'),
        offset: z.number().int().min(0).optional().describe('Messages to skip from the oldest (default 0).'),
        limit: z.number().int().min(1).max(MAX_MESSAGES).optional().describe(`How many messages at most (default ${DEFAULT_MESSAGES}).`),
      },
      outputSchema: {
        id: z.string(),
        name: z.string(),
        snippets: z.array(z.string()),
        total: z.number(),
        offset: z.number(),
        next_offset: z.number().optional(),
        messages: z.array(
          z.object({ id: z.string(), role: z.string(), created: z.string(), text: z.string(), chars: z.number(), truncated: z.boolean() }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'read_conversation', async () => {
        const offset = args.offset ?? 0;
        const read = core.conversations.reads.messagePage(args.id, offset, args.limit ?? DEFAULT_MESSAGES, PREVIEW_CHARS);
        // A message or name holding a value (a pasted key) shows its placeholder (issue 32).
        // A message cut for the page may cut a value too short to be found: what touches the cut is left out.
        const uncut = (text: string, chars: number): string => (chars > text.length ? withoutLastWord(text) : text);
        // The name with the messages: a title made from the first question may hold a key the message holds, cut short.
        const [name, ...texts] = await agentTexts(core, [read.name ?? '', ...read.messages.map((message) => uncut(message.text, message.chars))]);
        const page = { ...read, name: read.name === undefined ? undefined : name };
        const messages = page.messages.map((message, index) => ({
          id: message.id,
          role: message.role ?? 'UNKNOWN',
          created: message.created?.value ?? '',
          text: texts[index]!,
          chars: message.chars,
          truncated: message.chars > PREVIEW_CHARS,
        }));
        const snippets = [...page.assets];
        const lines = [`# ${page.name || '(untitled)'}`, `id: ${page.id}`];
        if (snippets.length > 0) lines.push(`snippets: ${snippets.join(', ')}`);
        const shown = messages.length > 0 ? `messages ${offset + 1}–${offset + messages.length} of ${page.total}` : `no messages from ${offset} (${page.total} in all)`;
        lines.push(shown);
        for (const message of messages) {
          lines.push('', `## ${message.role.toLowerCase()} (${message.created})`, message.text);
          if (message.truncated) lines.push(`[… the first ${PREVIEW_CHARS} of ${message.chars} characters]`);
        }
        if (page.next !== undefined) lines.push('', `${page.total - page.next} more message(s): call read_conversation with offset ${page.next}.`);
        return toolResult(lines.join('\n'), {
          id: page.id,
          name: page.name ?? '',
          snippets,
          total: page.total,
          offset,
          ...(page.next !== undefined ? { next_offset: page.next } : {}),
          messages,
        });
      }),
  );
}

/** `text` without the run of non-space characters it ends with (scanned back from the end: linear). */
function withoutLastWord(text: string): string {
  let end = text.length;
  while (end > 0 && !/\s/u.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}
