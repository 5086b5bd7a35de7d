/**
 * GET /model_context_protocol/2024-11-05/sse and POST …/messages: the legacy SSE transport on the
 * host's port, for agents set up for Pieces with it (Goose, older Copilot), behind the same guards,
 * body limits and exchange slots as /mcp (the route answers after the guard and body parser ran).
 *
 * Unlike /mcp this transport has sessions: the stream stays open and its server with it, so their
 * number is bounded (MAX_SESSIONS; past it a new stream is refused as busy), a session ends when
 * its client goes or stops reading (sseTransport.ts), and every one is closed when the host stops.
 * The session's server offers the Pieces tool set and Satchel's own; its writes are made as the
 * client that named itself in `initialize`.
 */
import type { Context } from 'koa';
import type Router from '@koa/router';
import { authorOf } from '../../core/history/authors.ts';
import type { Satchel } from '../../core/satchel.ts';
import { hostOperations } from '../../wire/host.ts';
import { HttpError } from '../errors.ts';
import { whenClientLeaves } from '../ndjson.ts';
import { route } from '../routes/deps.ts';
import { createMcpServer } from './mcpServer.ts';
import type { ExchangeSlots } from './exchangeSlots.ts';
import { MCP_EXCHANGE_TIMEOUT_MS, withoutCancelledRequests } from './exchangeBounds.ts';
import { SseTransport } from './sseTransport.ts';

/** SSE sessions open at once: each holds a connection and a server (agents open one each). */
export const MAX_SESSIONS = 32;

export class SseSessions {
  private readonly sessions = new Map<string, SseTransport>();
  private readonly core: Satchel;
  private readonly searches: ExchangeSlots;
  private readonly slots: ExchangeSlots;

  constructor(core: Satchel, searches: ExchangeSlots, slots: ExchangeSlots) {
    this.core = core;
    this.searches = searches;
    this.slots = slots;
  }

  get count(): number {
    return this.sessions.size;
  }

  /** Opens a stream on the request's response, its session and server. */
  async open(ctx: Context): Promise<void> {
    // HEAD asks what a GET would answer: the headers of an event stream, and no session.
    if (ctx.method === 'HEAD') {
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      return;
    }
    if (this.sessions.size >= MAX_SESSIONS) {
      ctx.set('Retry-After', '5');
      throw new HttpError(503, 'busy', `${MAX_SESSIONS} MCP SSE sessions are open already; close one, or use the streamable HTTP endpoint ${hostOperations.piecesMcp.path}.`);
    }
    const transport = new SseTransport(ctx.res, hostOperations.piecesSseMessages.path);
    let name: string | undefined;
    const server = createMcpServer(this.core, () => authorOf('mcp', (name ??= server.server.getClientVersion()?.name)), this.searches, 'pieces');
    this.sessions.set(transport.sessionId, transport);
    transport.onclose = () => {
      this.sessions.delete(transport.sessionId);
      void server.close();
    };
    // The stream is this response: Koa writes nothing more to it.
    ctx.respond = false;
    await server.connect(transport);
  }

  /** A client's message for its session: run in a slot, answered 202 once its answers are on the stream. */
  async post(ctx: Context): Promise<void> {
    const id = typeof ctx.query.sessionId === 'string' ? ctx.query.sessionId : undefined;
    if (id === undefined) throw new HttpError(400, 'bad_request', 'sessionId is missing: post to the endpoint the SSE stream announced.');
    const transport = this.sessions.get(id);
    if (!transport || transport.closed) throw new HttpError(404, 'not_found', `No open MCP SSE session ${JSON.stringify(id.slice(0, 64))}: open the stream again.`);
    const left = new AbortController();
    whenClientLeaves(ctx, () => left.abort());
    const body = withoutCancelledRequests(ctx.request.body);
    try {
      await this.slots.run(() => answeredInTime(transport, body), left.signal);
    } catch (error) {
      if (error instanceof HttpError && error.status === 503) ctx.set('Retry-After', '1');
      throw error;
    }
    ctx.status = 202;
    ctx.type = 'text/plain';
    ctx.body = 'Accepted';
  }

  dispose(): void {
    for (const transport of [...this.sessions.values()]) void transport.close();
  }
}

async function answeredInTime(transport: SseTransport, body: unknown): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      transport.timeOut(`The request took longer than ${MCP_EXCHANGE_TIMEOUT_MS / 1000} s and was stopped.`);
      resolve();
    }, MCP_EXCHANGE_TIMEOUT_MS);
  });
  try {
    await Promise.race([transport.receive(body), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function sseRoutes(router: Router, sessions: SseSessions): void {
  route(router, hostOperations.piecesSse, (ctx) => sessions.open(ctx));
  route(router, hostOperations.piecesSseMessages, (ctx) => sessions.post(ctx));
}
