/**
 * MCP relayed between an agent's transport (stdio, for agents that start only local servers, e.g.
 * Claude Desktop) and a Satchel host's streamable HTTP endpoint, with the SDK's transports doing
 * the framing on both sides. Messages pass through unchanged, ids included.
 *
 * Each request goes out on a transport of its own, so that the agent's `notifications/cancelled`
 * can end that one exchange (the host's MCP route is stateless: a cancellation posted separately
 * reaches a server that knows nothing of the request, while an exchange whose client left is
 * dropped from the host's queue when it has not started). Notifications and responses share the session's transport, which also
 * holds the GET stream a server may send list changes on (Satchel's answers 405: it has none).
 *
 * A host that restarts (an update, a crash, the idle exit) is found again through `locate` and
 * the agent's `initialize` is replayed to it, so the session goes on unseen. Only a request that
 * never reached a host is sent again (connection refused); one cut off while the host had it is
 * answered with an error, since a write may or may not have been done.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A host to relay to; `identity` changes when another process serves (a restart). */
export interface RelayHost {
  readonly url: URL;
  readonly identity: string;
}

export interface McpRelayOptions {
  /** The agent's side (a StdioServerTransport). */
  readonly agent: Transport;
  /**
   * The host to use now. `lost`: the one that just refused a connection, so one that differs is
   * wanted (waited for, or started). Rejects with a message for the agent when there is none.
   */
  readonly locate: (lost?: RelayHost) => Promise<RelayHost>;
  /**
   * The host serving now, when that can be read cheaply (the port file): checked before each
   * request, so a host restarted on the same port is given the agent's `initialize` too.
   */
  readonly current?: () => RelayHost | undefined;
  /** Lines for the log (stderr): never the agent's stdout. */
  readonly log: (line: string) => void;
  /** The fetch the transports use (tests count requests with it). */
  readonly fetch?: typeof fetch;
}

/** No retries of a request's own stream: a request cut off is answered at once. */
const NO_RECONNECTION = { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 };
/** Ids of the `initialize` requests the relay replays itself; their answers are not the agent's. */
const REPLAY_PREFIX = 'satchel-relay-initialize-';

export class McpRelay {
  private readonly options: McpRelayOptions;
  private host: RelayHost | undefined;
  /** The host the current session was initialized with, and its session id. */
  private sessionHost: RelayHost | undefined;
  private sessionId: string | undefined;
  /** The agent's `initialize` and whether it said `notifications/initialized`, to replay to a new host. */
  private initialize: JSONRPCRequest | undefined;
  private initialized = false;
  private replays = 0;
  /** Finding a host, and replaying `initialize` to it: one at a time, shared by the requests waiting. */
  private locating: Promise<RelayHost> | undefined;
  private reinitializing: Promise<RelayHost> | undefined;
  /** The agent's own `initialize` while it is under way: requests sent beside it wait for it, not replay it. */
  private initializing: Promise<void> | undefined;
  /** The host that last refused a connection, for `locate` to find another. */
  private lostHost: RelayHost | undefined;
  private session: StreamableHTTPClientTransport | undefined;
  private sessionOf: RelayHost | undefined;
  private readonly inFlight = new Map<RequestId, StreamableHTTPClientTransport>();
  private readonly cancelledIds = new Set<RequestId>();
  /** Requests from the agent not yet answered, from their arrival (finding a host included). */
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(options: McpRelayOptions) {
    this.options = options;
  }

  async start(): Promise<void> {
    const agent = this.options.agent;
    agent.onmessage = (message) => void this.fromAgent(message);
    agent.onerror = (error) => this.options.log(`agent side: ${error.message}`);
    await agent.start();
  }

  /** Requests sent to the host and not yet answered. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Waits up to `ms` for the requests received so far to be answered (stdin closed after a last request). */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.allSettled([...this.running]), late]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const transport of this.inFlight.values()) await transport.close();
    this.inFlight.clear();
    await this.session?.close();
    await this.options.agent.close();
  }

  private async fromAgent(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message)) {
      const answered = this.request(message);
      this.running.add(answered);
      return answered.finally(() => this.running.delete(answered));
    }
    if (isJSONRPCNotification(message)) {
      if (message.method === 'notifications/cancelled') await this.cancel(message.params?.requestId);
      if (message.method === 'notifications/initialized') this.initialized = true;
    }
    // A notification or a response to the host: nothing is answered, so a failure is only logged.
    try {
      const host = await this.connected();
      await this.sessionTransport(host).send(message);
    } catch (error) {
      if (isLost(error)) this.lose(this.host);
      this.options.log(`could not pass on ${describe(message)}: ${errorText(error)}`);
    }
  }

  private async request(message: JSONRPCRequest): Promise<void> {
    let initialized: (() => void) | undefined;
    if (message.method === 'initialize') {
      this.initialize = message;
      this.initialized = false;
      this.sessionHost = undefined;
      this.initializing = new Promise<void>((resolve) => (initialized = resolve));
    }
    const initializing = this.initializing;
    try {
      for (let attempt = 0; ; attempt++) {
        let host: RelayHost | undefined;
        try {
          host = message.method === 'initialize' ? await this.found() : await this.connected();
          await this.exchange(message, host);
          return;
        } catch (error) {
          if (this.closed || this.cancelledIds.has(message.id)) return;
          // Refused before the host had it: safe to send again, once, to the host found anew.
          if (attempt === 0 && host !== undefined && isLost(error)) {
            this.options.log(`the Satchel host at ${host.url.origin} is gone (${errorText(error)}); looking for it again`);
            this.lose(host);
            continue;
          }
          if (host !== undefined && isCutOff(error)) this.lose(host);
          await this.answer({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.ConnectionClosed, message: failureText(message, error) } });
          return;
        }
      }
    } finally {
      this.cancelledIds.delete(message.id);
      initialized?.();
      if (initialized && this.initializing === initializing) this.initializing = undefined;
    }
  }

  /** One request on a transport of its own; resolves once its answer went to the agent. */
  private async exchange(message: JSONRPCRequest, host: RelayHost): Promise<void> {
    const transport = this.transport(host, this.sessionId);
    this.inFlight.set(message.id, transport);
    try {
      const answered = new Promise<void>((resolve, reject) => {
        transport.onmessage = (reply) => {
          if ((isJSONRPCResultResponse(reply) || isJSONRPCErrorResponse(reply)) && reply.id === message.id) {
            // Known before the agent, answered, sends its next request.
            if (message.method === 'initialize') {
              this.sessionId = transport.sessionId;
              this.sessionHost = host;
            }
            resolve();
          }
          void this.answer(reply);
        };
        transport.onerror = reject;
        transport.onclose = () => reject(new Error('closed'));
      });
      // Rejections are read below; this keeps an early one from being reported as unhandled.
      answered.catch(() => undefined);
      await transport.start();
      await transport.send(message);
      await answered;
    } finally {
      if (this.inFlight.get(message.id) === transport) this.inFlight.delete(message.id);
      transport.onclose = undefined;
      await transport.close();
    }
  }

  /** The agent gave up on a request: its exchange is ended (the host abandons it) and not answered. */
  private async cancel(id: unknown): Promise<void> {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const transport = this.inFlight.get(id);
    if (!transport) return;
    this.inFlight.delete(id);
    this.cancelledIds.add(id);
    await transport.close();
  }

  private async answer(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && typeof message.id === 'string' && message.id.startsWith(REPLAY_PREFIX)) return;
    if (this.closed) return;
    try {
      await this.options.agent.send(message);
    } catch (error) {
      this.options.log(`could not answer the agent: ${errorText(error)}`);
    }
  }

  /** A host, found if none is known (without initializing it). */
  private found(): Promise<RelayHost> {
    const now = this.host && this.options.current?.();
    if (now !== undefined && now.identity !== this.host?.identity) this.host = now;
    if (this.host) return Promise.resolve(this.host);
    this.locating ??= this.options.locate(this.lostHost).then(
      (host) => {
        this.locating = undefined;
        this.lostHost = undefined;
        return (this.host = host);
      },
      (error: unknown) => {
        this.locating = undefined;
        throw error;
      },
    );
    return this.locating;
  }

  /** The host the agent's session is open on: a new one is given the agent's `initialize` first. */
  private async connected(): Promise<RelayHost> {
    for (;;) {
      if (this.initializing) await this.initializing;
      const host = await this.found();
      if (this.initialize === undefined || this.sessionHost?.identity === host.identity) return host;
      this.reinitializing ??= this.reinitialize(host).finally(() => (this.reinitializing = undefined));
      await this.reinitializing;
    }
  }

  /** The agent's `initialize` (and `initialized`) said again to a host that has not heard it. */
  private async reinitialize(host: RelayHost): Promise<RelayHost> {
    const initialize = this.initialize!;
    const transport = this.transport(host, undefined);
    try {
      await transport.start();
      await transport.send({ ...initialize, id: `${REPLAY_PREFIX}${++this.replays}` });
      this.sessionId = transport.sessionId;
      this.sessionHost = host;
    } finally {
      await transport.close();
    }
    if (this.initialized) await this.sessionTransport(host).send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    this.options.log(`the session goes on with the Satchel host at ${host.url.origin}`);
    return host;
  }

  private sessionTransport(host: RelayHost): StreamableHTTPClientTransport {
    if (this.session !== undefined && this.session.sessionId === this.sessionId && this.sessionOf === host) return this.session;
    void this.session?.close();
    const session = this.transport(host, this.sessionId);
    session.onmessage = (message) => void this.answer(message);
    session.onerror = (error) => this.options.log(`host stream: ${errorText(error)}`);
    void session.start();
    this.session = session;
    this.sessionOf = host;
    return session;
  }

  private lose(host: RelayHost | undefined): void {
    if (host === undefined || this.host !== host) return;
    this.lostHost = host;
    this.host = undefined;
  }

  private transport(host: RelayHost, sessionId: string | undefined): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(host.url, {
      ...(sessionId !== undefined ? { sessionId } : {}),
      reconnectionOptions: NO_RECONNECTION,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
  }
}

/** The request never reached a host: nothing listens on the port, or the session is unknown there. */
function isLost(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  return codeOf(error) === 'ECONNREFUSED';
}

/** The connection ended while the host had the request. */
function isCutOff(error: unknown): boolean {
  return !(error instanceof StreamableHTTPError) && codeOf(error) !== undefined;
}

function codeOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (/SSE stream disconnected|terminated|other side closed/i.test(cause.message)) return 'ECONNRESET';
  }
  return undefined;
}

function failureText(message: JSONRPCRequest, error: unknown): string {
  if (codeOf(error) === 'ECONNREFUSED') return `No Satchel host answers (${errorText(error)}).`;
  if (isCutOff(error)) return `The Satchel host stopped while answering ${message.method}; it may or may not have been done (${errorText(error)}). Ask again: the relay finds the host again.`;
  return `Satchel could not answer ${message.method}: ${errorText(error)}`;
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function describe(message: JSONRPCMessage): string {
  return 'method' in message ? message.method : `the answer to ${String('id' in message ? message.id : '?')}`;
}
