/**
 * The legacy HTTP+SSE transport of MCP (protocol 2024-11-05), as Goose and older Copilot speak it
 * to Pieces: a GET opens an event stream whose first event names the endpoint to POST messages
 * to; every answer travels on the stream. The SDK's own SSEServerTransport writes to the response
 * without a bound and answers POSTs itself; this one is the host's: a client that stops reading
 * its stream is dropped once BUFFERED_LIMIT bytes wait for it, a POST is answered (202) only once
 * the answers to its requests are on the stream, so the exchange slots bound SSE work as they
 * bound /mcp, and a comment line every KEEPALIVE_MS finds a dead connection.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidInputError } from '../../core/errors.ts';

/** Bytes written to a stream and not yet taken by its client, past which the session is closed. */
export const BUFFERED_LIMIT = 16 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;

export class SseTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  private readonly res: ServerResponse;
  /** Where the client posts its messages (the path; the session id is added). */
  private readonly endpoint: string;
  /** Requests received and not yet answered: resolved when their answer is written. */
  private readonly pending = new Map<RequestId, () => void>();
  private keepalive: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(res: ServerResponse, endpoint: string) {
    this.res = res;
    this.endpoint = endpoint;
  }

  get closed(): boolean {
    return this.ended;
  }

  async start(): Promise<void> {
    this.res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
    this.res.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${this.sessionId}\n\n`);
    this.res.on('close', () => this.end());
    this.keepalive = setInterval(() => this.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.ended) throw new Error('The SSE stream is closed');
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id;
      if (id !== undefined) this.answered(id);
    }
  }

  async close(): Promise<void> {
    if (!this.ended) this.res.end();
    this.end();
  }

  /**
   * Hands the client's messages (one, or a batch) to the server; resolves once each request in
   * them is answered on the stream. A message that is not JSON-RPC is refused before any is run.
   */
  receive(body: unknown): Promise<void> {
    const messages = Array.isArray(body) ? body : [body];
    const parsed = messages.map((message) => {
      const result = JSONRPCMessageSchema.safeParse(message);
      if (!result.success) throw new InvalidInputError('The body is not a JSON-RPC message');
      return result.data;
    });
    const waits: Array<Promise<void>> = [];
    for (const message of parsed) {
      if (!isJSONRPCRequest(message)) continue;
      // A client reusing an id still waiting: the earlier post stops waiting (one answer will come for the id).
      this.answered(message.id);
      waits.push(new Promise<void>((resolve) => this.pending.set(message.id, resolve)));
    }
    for (const message of parsed) this.onmessage?.(message);
    return Promise.all(waits).then(() => undefined);
  }

  /** Answers the requests still waiting with a timeout error (the client's calls fail instead of hanging). */
  timeOut(message: string): void {
    for (const id of [...this.pending.keys()]) {
      void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.RequestTimeout, message } }).catch(() => undefined);
    }
  }

  private answered(id: RequestId): void {
    const resolve = this.pending.get(id);
    this.pending.delete(id);
    resolve?.();
  }

  private write(chunk: string): void {
    if (this.ended) return;
    this.res.write(chunk);
    // A client that stops reading its stream would hold every answer in memory.
    if (this.res.writableLength > BUFFERED_LIMIT) {
      this.res.destroy();
      this.end();
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepalive);
    // Nothing more will be written: whoever waits for an answer stops waiting.
    for (const resolve of this.pending.values()) resolve();
    this.pending.clear();
    this.onclose?.();
  }
}
