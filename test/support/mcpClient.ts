/**
 * An MCP client of a test host over streamable HTTP, and its tool calls' results as the SDK's
 * CallToolResult (`callTool` types its answer as a union with the older task result).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A client named `name` connected to the host at `url`, on `path` (Satchel's `/mcp` or a Pieces path),
 * over streamable HTTP or the legacy SSE transport (Pieces' 2024-11-05 path).
 */
export async function connectMcp(url: string, name: string, path = '/mcp', transport: 'streamable' | 'sse' = 'streamable'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const endpoint = new URL(`${url}${path}`);
  await client.connect(transport === 'sse' ? new SSEClientTransport(endpoint) : new StreamableHTTPClientTransport(endpoint));
  return client;
}

/** Calls a tool; its result parsed as a CallToolResult. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
}

/** Calls a tool that must answer without an error (the error's content is the assertion's message). */
export async function callToolOk(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await callTool(client, name, args);
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return result;
}

/** Calls a tool that must answer without an error; its structured content checked against `shape` (what the test reads of it). */
export async function structuredOk<T>(client: Client, name: string, args: Record<string, unknown>, shape: z.ZodType<T>): Promise<T> {
  return shape.parse((await callToolOk(client, name, args)).structuredContent);
}
