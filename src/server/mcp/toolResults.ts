/**
 * The one error path of the MCP tools: a domain error (unknown id, bad input) is a tool result
 * with `isError`, which the agent reads and can correct; anything unexpected is logged and masked,
 * as the HTTP edge does.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, NotFoundError } from '../../core/errors.ts';
import type { Logger } from '../../core/context.ts';
import { HttpError } from '../errors.ts';

export function toolResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a tool's body; its typed failures become `isError` results the agent can act on. */
export async function guarded(logger: Logger, tool: string, body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof NotFoundError && error.kind === 'asset') return toolError(snippetNotFound(error.id));
    if (error instanceof DomainError) return toolError(error.message);
    // Refused as busy (the line of searches is full): the agent is told to retry.
    if (error instanceof HttpError) return toolError(error.message);
    logger.error(`MCP tool ${tool} failed`, error);
    return toolError('Internal error; see the Satchel log for details.');
  }
}

/** What an agent is told of an id that names no snippet, and how to find one that does. */
export function snippetNotFound(id: string): string {
  return `Snippet ${JSON.stringify(id)} not found (it may have been deleted); find snippets and their ids with search_snippets or list_recent_snippets.`;
}
