/**
 * Small helpers every route module uses to read its input and write its reply in the shapes the
 * client parses: strict booleans in the query, both spellings of a query name, zod validation of
 * bodies, text replies for string operations and empty replies for void ones.
 */
import type { Context } from 'koa';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { encodeJson, jsonValueReply, needsWalk } from './jsonEncode.ts';
import { InvalidInputError } from '../core/errors.ts';
import type { BodyOut, WithBody } from '../wire/operation.ts';
import { check } from '../wire/validate.ts';
import { checkedFor, refusalOf } from './checkedBodies.ts';

/** Validates `value` with `schema`; a failure is a 400 that names the offending field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = check(schema, value, what);
  if (result.ok) return result.data;
  throw new InvalidInputError(result.message);
}

/**
 * The request body of a declared operation, validated by its schema (an absent body is validated
 * too). A large body was validated by the same schema on the JSON worker (checkedBodies.ts).
 */
export function input<O extends WithBody>(ctx: Context, op: O): BodyOut<O> {
  const checked = checkedFor(ctx, op);
  if (checked === undefined) return parse<O['body']>(op.body, ctx.request.body, op.what);
  if (!checked.ok) throw refusalOf(checked);
  // The worker's output of op.body, structured-cloned: the schema's output for this operation.
  return checked.value as BodyOut<O>;
}


/** The first present query parameter among `names` (e.g. `searchable_tags`, `searchableTags`). */
export function queryString(ctx: Context, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = ctx.query[name];
    if (Array.isArray(value)) return value[value.length - 1];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** A boolean query parameter: `true`/`false` (also 1/0); absent → `fallback`; anything else → 400. */
export function queryBoolean(ctx: Context, name: string, fallback: boolean): boolean {
  const value = queryString(ctx, name);
  if (value === undefined || value === '') return fallback;
  switch (value.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new InvalidInputError(`Query parameter ${name} must be true or false, not ${JSON.stringify(value)}`);
  }
}

/** Boolean query parameters of the interface, checked before any route runs (see `checkBooleanQueries`). */
const booleanQueries = ['transferables', 'transferable', 'pseudo', 'suggested', 'package_activities', 'packageActivities'];

/**
 * Refuses a malformed boolean query parameter before the route runs, so no write can happen first
 * and fail on its reply afterwards.
 */
export async function checkBooleanQueries(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  for (const name of booleanQueries) queryBoolean(ctx, name, false);
  await next();
}

/** `transferables` (default true): whether replies carry content. */
export function transferables(ctx: Context): boolean {
  return queryBoolean(ctx, 'transferables', true);
}

/** `pseudo` (default false): whether pseudo assets are included. */
export function pseudo(ctx: Context): boolean {
  return queryBoolean(ctx, 'pseudo', false);
}

/**
 * Replies with a JSON document (of any size: see encodeJson). One holding a string of a MiB or
 * more (a 4 Mi-character snippet is 12 MiB of JSON in its three places) is encoded while it is
 * sent, its large strings in parts with turns between, not stringified in one turn.
 */
export function json(ctx: Context, value: unknown, status = 200): void {
  ctx.status = status;
  ctx.type = 'application/json';
  if (needsWalk(value)) {
    const stream = Readable.from(jsonValueReply(value));
    ctx.res.once('close', () => stream.destroy());
    ctx.body = stream;
    return;
  }
  const parts = encodeJson(value);
  ctx.body = parts.length === 1 ? parts[0] : Readable.from(parts);
}

/** Replies with JSON produced while it is sent (see jsonArrayReply). */
export function jsonStream(ctx: Context, chunks: AsyncIterable<Buffer>): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  const stream = Readable.from(chunks);
  // A client that goes away stops the reading of further pages.
  ctx.res.once('close', () => stream.destroy());
  ctx.body = stream;
}

/** Replies to a string operation as text/plain (the client then returns the raw text). */
export function text(ctx: Context, value: string): void {
  ctx.status = 200;
  ctx.type = 'text/plain';
  ctx.body = value;
}

/** Replies to a void operation. */
export function empty(ctx: Context): void {
  ctx.status = 204;
  ctx.body = null;
}

/** A path parameter, decoded by the router; empty values are refused. */
export function param(ctx: Context & { params?: Record<string, string> }, name: string): string {
  const value = ctx.params?.[name];
  if (value === undefined || value === '') throw new InvalidInputError(`Missing path parameter ${name}`);
  return value;
}
