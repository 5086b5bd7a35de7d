/**
 * The replies of a child process that answers requests over its IPC channel (the model hosts):
 * each with the id of its request, a result or an error's message. The child serves its requests
 * with `serveParent` (serve.ts); the parent settles its calls (calls.ts) with `resultOf`.
 */

/** A request to such a child: whatever the protocol says, with the id its reply comes back with. */
export interface RpcRequest {
  readonly id: number;
}

/** A reply to the request with the same id; id 0 with result `'ready'` announces a started child. */
export type RpcReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** The id of the reply a child sends, unasked, once it is ready for requests. */
export const READY_ID = 0;

/** A request without its id, as a caller writes it (the channel adds the id). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The result a reply carries, or its error thrown as an Error. */
export function resultOf(reply: RpcReply): unknown {
  if (reply.ok) return reply.result;
  throw new Error(reply.error);
}
