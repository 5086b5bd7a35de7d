/**
 * Bodies the JSON worker already checked against the schema of the operation the router will run
 * (jsonWorker.ts): the route takes the checked value instead of checking the body again on the event
 * loop, and a refusal is thrown where the route reads its body, as it is for a body checked there.
 * An operation is known by its declared name (wire/operations.ts), which is also its router layer's.
 * For a checked body, ctx.request.body is the schema's output too (the parsed text never crossed);
 * the routes that read ctx.request.body directly (MCP's) declare no schema, so theirs is the text's.
 */
import type { Context } from 'koa';
import type { Operation } from '../wire/operation.ts';
import { allOperations } from '../wire/operations.ts';
import { InvalidInputError, TooLargeError, type DomainError } from '../core/errors.ts';
import type { RefusalCode } from './jsonProtocol.ts';

/** What the worker made of a body for `operation`: the schema's output, or why it was refused. */
export type CheckedBody =
  | { readonly operation: string; readonly ok: true; readonly value: unknown }
  | { readonly operation: string; readonly ok: false; readonly code: RefusalCode; readonly message: string };

/** The domain error the route would have thrown for a refused body: same code, same words. */
export function refusalOf(body: { readonly code: RefusalCode; readonly message: string }): DomainError {
  return body.code === 'too_large' ? new TooLargeError(body.message) : new InvalidInputError(body.message);
}

const checked = new WeakMap<Context, CheckedBody>();
const names = new Map<Operation, string>(allOperations.map(({ name, op }) => [op, name]));

/** `assetOperations.search` for that operation; undefined for one no table declares. */
export function operationName(op: Operation): string | undefined {
  return names.get(op);
}

export function keepChecked(ctx: Context, body: CheckedBody): void {
  checked.set(ctx, body);
}

/** The worker's check of this request's body for `op`, if it made one. */
export function checkedFor(ctx: Context, op: Operation): CheckedBody | undefined {
  const body = checked.get(ctx);
  return body !== undefined && body.operation === operationName(op) ? body : undefined;
}
