/**
 * The child's side of the request–reply channel of replies.ts: a child process answers each
 * request its parent sends with `handle`'s result or error (concurrently: replies may leave in
 * another order than their requests came), announces itself as ready, and exits when the parent
 * goes away (nothing else may keep what it holds, a model's memory).
 */
import { READY_ID, type RpcReply, type RpcRequest } from './replies.ts';

export function serveParent<Request extends RpcRequest>(handle: (request: Request) => Promise<unknown>): void {
  const reply = (message: RpcReply): void => void process.send?.(message);
  process.on('message', (request: Request) => {
    handle(request).then(
      (result) => reply({ id: request.id, ok: true, result }),
      (error: unknown) => reply({ id: request.id, ok: false, error: messageOf(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  reply({ id: READY_ID, ok: true, result: 'ready' });
}

/** An error's message, also of an error from another realm (not `instanceof Error` here). */
function messageOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);
}
