/**
 * The host's operations outside the data areas: health and version (what clients check first), the
 * local user, the cloud-account operations real clients offer (always refused: Satchel is local
 * only), the long-term-memory vision processor's status, and MCP on the same port.
 */
import type * as W from '../core/piecesTypes.ts';
import { get, json, post, socket, text } from './operation.ts';

export const hostOperations = {
  health: get('/.well-known/health', text),
  version: get('/.well-known/version', text),
  user: get('/user', json<W.ReturnedUserProfile>()),
  signIn: post('/os/sign_in', json<never>()),
  signOut: post('/os/sign_out', json<never>()),
  refreshUser: post('/user/refresh', json<never>()),
  connectAllocation: post('/allocations/connect', json<never>()),
  disconnectAllocation: post('/allocations/disconnect', json<never>()),
  visionStatus: get('/workstream_pattern_engine/processors/vision/status', json<{ vision: object }>()),
  /** The MCP streamable HTTP transport: a JSON-RPC message in, its JSON-RPC answer out (mcpRoute.ts). */
  mcp: post('/mcp', json<unknown>()),
  /** The same, at the path agents set up for Pieces point at; it offers Pieces' tools too (docs/mcp.md). */
  piecesMcp: post('/model_context_protocol/2025-03-26/mcp', json<unknown>()),
  /** The legacy SSE transport Pieces serves (Goose, older Copilot): the event stream, its first event naming where to post. */
  piecesSse: get('/model_context_protocol/2024-11-05/sse', text),
  /** Where an SSE session's client posts its messages (`?sessionId=`); the answers travel on the stream (sseRoute.ts). */
  piecesSseMessages: post('/model_context_protocol/2024-11-05/messages', text),
} as const;

/** The host's WebSocket-only streams (the Pieces clients open all four at start-up). */
export const hostSockets = {
  /** Sends `ok` on connect. */
  health: socket<string>()('/.well-known/stream/health'),
  /** The local user's profile on connect and on each change. */
  user: socket<W.UserProfile>()('/user/stream'),
  /** The vision processor's status, once on connect. */
  visionStatus: socket<{ vision: object }>()('/workstream_pattern_engine/processors/vision/status/stream'),
} as const;
