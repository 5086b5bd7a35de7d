/**
 * POST /mcp: the MCP streamable HTTP transport, on the host's own port behind its guards and body
 * limits; the same at /model_context_protocol/2025-03-26/mcp, where agents set up for Pieces post,
 * with Pieces' tools offered too (mcpServer.ts McpFlavour). The legacy SSE transport Pieces also
 * serves is sseRoute.ts's.
 *
 * Stateless: each POST gets a fresh transport and a server of its own for the exchange, answered
 * with one JSON reply and closed before the request ends. Every tool is a single request and
 * answer and the server never calls the client, so sessions would buy nothing but state to evict:
 * with them, a long-running host serving many agents would hold one server per client that never
 * said goodbye, and SIGTERM would have streams to close. Here nothing of an exchange outlives its
 * request; shutdown treats /mcp like any other route. The cost is the absence of a GET notification
 * stream (answered 405, which clients expect of stateless servers). Servers are built once and
 * lent (McpServers: building one costs several times an exchange), and at most a few exchanges run
 * at once (ExchangeSlots). No exchange waits forever (exchangeBounds.ts). The one thing remembered
 * across requests is each client's name, for the author of its writes (mcpClients.ts).
 */
import type { Context, Next } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { route, type RouteModule } from '../routes/deps.ts';
import { hostOperations } from '../../wire/host.ts';
import { HttpError, describeError } from '../errors.ts';
import { whenClientLeaves } from '../ndjson.ts';
import { McpServers, type McpFlavour } from './mcpServer.ts';
import { SseSessions, sseRoutes } from './sseRoute.ts';
import { McpClients, SESSION_HEADER } from './mcpClients.ts';
import { answerInTime, withoutCancelledRequests } from './exchangeBounds.ts';
import { ExchangeSlots } from './exchangeSlots.ts';

const MCP_PATH = hostOperations.mcp.path;
/** Where agents set up for Pieces post (streamable HTTP), with Pieces' tools offered too. */
const PIECES_PATH = hostOperations.piecesMcp.path;
/** Every path whose requests and refusals are JSON-RPC (the SSE stream itself is not). */
const JSON_RPC_PATHS = [MCP_PATH, PIECES_PATH, hostOperations.piecesSseMessages.path];

/** JSON-RPC's code for a body that is not JSON; -32000 is the transport's code for its other refusals. */
const PARSE_ERROR = -32700;
const TRANSPORT_ERROR = -32000;
const UNPARSABLE = new Set(['malformed_json', 'invalid_encoding', 'too_deep']);

/** Headers that describe this connection, not the message: they have no place on a Request object. */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/**
 * The MCP path the request is for, or undefined: the router matches without regard to case and
 * with or without a trailing slash (its `sensitive` and `strict` are off), so `/MCP` is /mcp too.
 */
function mcpPathOf(ctx: Context): string | undefined {
  const path = ctx.path.toLowerCase().replace(/\/$/, '');
  return JSON_RPC_PATHS.find((known) => known.toLowerCase() === path);
}

/**
 * Placed before the body parser: a request the host refuses on /mcp (a body malformed, too large or
 * not JSON; a malformed query) is answered as a JSON-RPC error, the shape an MCP client reads, with
 * the host's HTTP status.
 */
export async function mcpRefusals(ctx: Context, next: Next): Promise<void> {
  const path = mcpPathOf(ctx);
  if (path === undefined) return next();
  let refused;
  try {
    await next();
    // Only POST is routed here; other methods are refused as the SDK's stateless transport would.
    if (ctx.status === 405 && ctx.body == null) refused = { status: 405, code: 'method_not_allowed', message: `${ctx.method} is not allowed on ${path}; MCP requests are POSTs.` };
  } catch (error) {
    refused = describeError(error);
    if (!refused) throw error;
  }
  if (refused === undefined) return;
  ctx.status = refused.status;
  ctx.type = 'application/json';
  // `data.code` keeps the host's own name for the refusal (too_large, malformed_json…).
  const code = UNPARSABLE.has(refused.code) ? PARSE_ERROR : TRANSPORT_ERROR;
  ctx.body = { jsonrpc: '2.0', error: { code, message: refused.message, data: { code: refused.code } }, id: null };
}

/** The request as the web-standard transport reads it; the body was parsed already. */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || CONNECTION_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://127.0.0.1${ctx.url}`, { method: ctx.method, headers });
}

async function reply(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => ctx.set(name, value));
  // JSON replies only (enableJsonResponse): a bounded body, never a stream. An empty one (202 for
  // a notification) stays empty rather than becoming Koa's 204.
  ctx.body = await response.text();
}

/** One exchange: the request handed to a transport and a lent server, the answer copied to the reply. */
async function exchange(ctx: Context, clients: McpClients, servers: McpServers, flavour: McpFlavour): Promise<void> {
  // The client's name (for its writes' author) comes with `initialize`; later requests bring the session id it was answered with.
  const initialized = clients.initialize(ctx.request.body);
  const author = initialized?.author ?? clients.authorOf(ctx.get(SESSION_HEADER) || undefined);
  const server = servers.take(author, flavour);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  let answered = false;
  try {
    await server.connect(transport);
    const body = withoutCancelledRequests(ctx.request.body);
    const answer = transport.handleRequest(webRequest(ctx), { parsedBody: body }).then((response) => {
      // In JSON reply mode the transport answers once every request's handler has returned.
      answered = true;
      return response;
    });
    await reply(ctx, await answerInTime(answer, body));
    if (initialized && ctx.status < 300) ctx.set(SESSION_HEADER, initialized.sessionId);
  } finally {
    // Closes the transport too and drops everything of the exchange the server held.
    await server.close();
  }
  // Lent again only when nothing of this exchange can reach the next: no handler still running
  // (a timed-out exchange may have one) and no client remembered (an `initialize` was answered).
  const remembers = server.server.getClientVersion() !== undefined || server.server.getClientCapabilities() !== undefined;
  if (answered && !remembers) servers.keep(author, server, flavour);
}

export const mcpRoutes: RouteModule = (router, { core, searches, onDispose }) => {
  const clients = new McpClients();
  const servers = new McpServers(core, searches);
  const slots = new ExchangeSlots();
  const serve = (flavour: McpFlavour) => async (ctx: Context) => {
    const left = new AbortController();
    whenClientLeaves(ctx, () => left.abort());
    try {
      await slots.run(() => exchange(ctx, clients, servers, flavour), left.signal);
    } catch (error) {
      // Refused as busy: the same answer as the body budget's.
      if (error instanceof HttpError && error.status === 503) ctx.set('Retry-After', '1');
      throw error;
    }
  };
  route(router, hostOperations.mcp, serve('satchel'));
  route(router, hostOperations.piecesMcp, serve('pieces'));
  // The SSE sessions take their turns in the same slots as the streamable exchanges.
  const sessions = new SseSessions(core, searches, slots);
  onDispose(() => sessions.dispose());
  sseRoutes(router, sessions);
};
