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
