/** MCP tool calls over the host's stateless /mcp endpoint, as raw JSON-RPC requests (no SDK client in the probing process). */
import { z } from 'zod';
import { CallToolResultSchema, ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { raw, type RawReply } from './support.ts';

export interface ToolReply {
  readonly status: number;
  /** Bytes of the reply. */
  readonly bytes: number;
  readonly ms: number;
  /** The tool's text and structured content; undefined when the call failed. */
  readonly text?: string;
  readonly structured?: unknown;
  readonly isError?: boolean;
}

let nextId = 1;

/** The `result` of a JSON-RPC reply, as `schema` reads it; undefined when the reply holds none (an error, a status without a body). */
function resultOf<T>(reply: RawReply, schema: z.ZodType<T>): T | undefined {
  const envelope = z.object({ result: z.unknown() }).safeParse(reply.json);
  if (!envelope.success) return undefined;
  const result = schema.safeParse(envelope.data.result);
  return result.success ? result.data : undefined;
}

/** Calls tool `name` with `args`; resolves with the reply whatever its status. */
export async function callTool(port: number, name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<ToolReply> {
  const started = performance.now();
  const reply = await raw(port, {
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
    timeoutMs,
  });
  const ms = Math.round(performance.now() - started);
  const result = resultOf(reply, CallToolResultSchema);
  const text = result?.content.find((part) => part.type === 'text');
  return {
    status: reply.status,
    bytes: reply.body.length,
    ms,
    ...(result ? { text: text?.type === 'text' ? text.text : '', structured: result.structuredContent, isError: result.isError === true } : {}),
  };
}

/** Reads the MCP resource at `uri`; resolves with the reply whatever its status, and the text of its first content. */
export async function readResource(port: number, uri: string, timeoutMs = 120_000): Promise<{ status: number; bytes: number; ms: number; text?: string }> {
  const started = performance.now();
  const reply = await raw(port, {
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'resources/read', params: { uri } }),
    timeoutMs,
  });
  const ms = Math.round(performance.now() - started);
  const first = resultOf(reply, ReadResourceResultSchema)?.contents[0];
  const text = first !== undefined && 'text' in first ? first.text : undefined;
  return { status: reply.status, bytes: reply.body.length, ms, ...(text !== undefined ? { text } : {}) };
}
