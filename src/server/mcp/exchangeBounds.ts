/**
 * What keeps one POST /mcp exchange from waiting forever: a request cancelled in its own batch is
 * taken out before the transport sees it, and every exchange is answered within a time limit.
 *
 * Why the first: in JSON reply mode the SDK's transport answers a POST once every request in it
 * has its response, and the server drops the response of a request it was told to cancel (as the
 * protocol says of a cancelled request). A batch holding both a request and its
 * `notifications/cancelled` was therefore never answered (130 s, until the client gave up).
 */
import { CancelledNotificationSchema, ErrorCode, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Far beyond any tool's bounded work, and below the SDK client's own 60 s request timeout, so the
 * client reads this answer rather than giving up on its own.
 */
export const MCP_EXCHANGE_TIMEOUT_MS = 30_000;

/**
 * The body without the requests cancelled in the same batch, nor their cancellations: neither is
 * run nor answered. A batch left with no request is answered 202 by the transport, as one of
 * notifications only.
 */
export function withoutCancelledRequests(body: unknown): unknown {
  if (!Array.isArray(body)) return body;
  const requested = new Set<RequestId>(body.filter(isJSONRPCRequest).map((message) => message.id));
  const cancelled = new Set<RequestId>();
  for (const message of body) {
    const cancellation = CancelledNotificationSchema.safeParse(message);
    const id = cancellation.success ? cancellation.data.params.requestId : undefined;
    if (id !== undefined && requested.has(id)) cancelled.add(id);
  }
  if (cancelled.size === 0) return body;
  return body.filter((message: unknown) => {
    if (isJSONRPCRequest(message)) return !cancelled.has(message.id);
    const cancellation = CancelledNotificationSchema.safeParse(message);
    const id = cancellation.success ? cancellation.data.params.requestId : undefined;
    return id === undefined || !cancelled.has(id);
  });
}

/**
 * The transport's answer, or after `timeoutMs` a JSON-RPC error for each request of the body (the
 * client's calls fail with RequestTimeout instead of hanging).
 */
export async function answerInTime(answer: Promise<Response>, body: unknown, timeoutMs = MCP_EXCHANGE_TIMEOUT_MS): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Response>((resolve) => {
    timer = setTimeout(() => resolve(timedOut(body, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(body: unknown, timeoutMs: number): Response {
  const message = `The request took longer than ${timeoutMs / 1000} s and was stopped.`;
  const requests = (Array.isArray(body) ? body : [body]).filter(isJSONRPCRequest);
  const errors = requests.map((request) => ({ jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.RequestTimeout, message } }));
  const reply = Array.isArray(body) ? errors : (errors[0] ?? { jsonrpc: '2.0', id: null, error: { code: ErrorCode.RequestTimeout, message } });
  return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
}
