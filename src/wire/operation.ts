/**
 * One declaration per operation: method, path, how it answers and, where it reads one, its body
 * schema. The route registers at the declared method and path and parses with the schema; the
 * client builds its request from the same declaration (path parameters typed from the path, the
 * body from the schema's input type, the reply from the declared kind), so a field or path that
 * drifts on either side stops compiling instead of failing at run time.
 */
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How an operation answers: a JSON document, text (string operations: text/plain or a JSON
 * string), nothing (void operations: 204), or newline-delimited JSON read as it arrives.
 */
export type ReplyKind = 'json' | 'text' | 'void' | 'ndjson';

/** How an operation answers and, as a type only, what the reply (or each NDJSON line) holds. */
export interface Reply<K extends ReplyKind = ReplyKind, T = unknown> {
  readonly kind: K;
  /** Never set: carries the reply's type to the client. */
  readonly shape?: T;
}

export function json<T>(): Reply<'json', T> {
  return { kind: 'json' };
}
export function ndjson<T>(): Reply<'ndjson', T> {
  return { kind: 'ndjson' };
}
export const text: Reply<'text', string> = { kind: 'text' };
export const none: Reply<'void', void> = { kind: 'void' };

export interface Operation<P extends string = string, Body extends z.ZodType | undefined = z.ZodType | undefined, R extends Reply = Reply> {
  readonly method: Method;
  /** Koa-style path; `:name` segments are filled by `pathOf`. */
  readonly path: P;
  readonly reply: R;
  /** The body's schema, built when first read; undefined when the operation reads no body. */
  readonly body: Body;
  /** The published model's name of the body, used in 400 messages ("SeededConnectorCreation: …"). */
  readonly what: string;
}

/** An operation that reads a body. */
export type WithBody<Body extends z.ZodType = z.ZodType> = Operation<string, Body>;

/** The names of a path's `:name` segments: `'/asset/:asset/tags/associate/:tag'` → `'asset' | 'tag'`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What the reply of `O` holds (each line's type for NDJSON). */
export type ReplyOf<O extends Operation> = O['reply'] extends Reply<ReplyKind, infer T> ? T : never;

/**
 * The published models stay the reference: `Accepts<Schema, Published>` compiles only when every
 * body the published type allows is one the schema takes, so a schema that starts requiring or
 * retyping a field the published client sends stops compiling.
 */
export type Accepts<Schema extends z.ZodType, Published extends z.input<Schema>> = Published;

/**
 * The other direction: `Feeds<Parsed, Core>` compiles only when what a schema parses is what core
 * takes, so the route hands the body over without a cast and a field that drifts stops compiling.
 */
export type Feeds<Parsed extends Core, Core> = Parsed;

/** `T` with `K` required: where Satchel needs a field the published model leaves optional. */
export type Requiring<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };

/** What a client sends (before defaults and transforms). */
export type BodyIn<O extends WithBody> = z.input<O['body']>;
/** What a route hands to core (after parsing). */
export type BodyOut<O extends WithBody> = z.output<O['body']>;

/**
 * Calls `build` once, when first asked. Each area builds its schemas in such functions, so loading
 * the declarations builds none: the data host builds a schema on the first request that reads it,
 * and the extension's client, which reads only methods, paths and reply kinds, never builds any (nor
 * loads zod: docs/performance.md, activation).
 */
export function lazy<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** A body's schema, given as the function that builds it (one of its area's `lazy` schemas). */
export type Schema<Body extends z.ZodType> = () => Body;

function declare(method: Method, path: string, reply: Reply, what: string, body: Schema<z.ZodType> | undefined): Operation {
  const schema = body === undefined ? undefined : lazy(body);
  return {
    method,
    path,
    reply,
    what,
    get body() {
      return schema?.();
    },
  };
}

/** A GET; `body` only for the few the client sends with a JSON body (the published client does). */
export function get<P extends string, R extends Reply>(path: P, reply: R): Operation<P, undefined, R>;
export function get<P extends string, R extends Reply, Body extends z.ZodType>(path: P, reply: R, what: string, body: Schema<Body>): Operation<P, Body, R>;
export function get(path: string, reply: Reply, what = '', body?: Schema<z.ZodType>): Operation {
  return declare('GET', path, reply, what, body);
}

/** A POST; without `body` it reads none (whatever is sent is only checked to be JSON). */
export function post<P extends string, R extends Reply>(path: P, reply: R): Operation<P, undefined, R>;
export function post<P extends string, R extends Reply, Body extends z.ZodType>(path: P, reply: R, what: string, body: Schema<Body>): Operation<P, Body, R>;
export function post(path: string, reply: Reply, what = '', body?: Schema<z.ZodType>): Operation {
  return declare('POST', path, reply, what, body);
}

/** A PUT, which reads its body (Satchel's own settings of a record). */
export function put<P extends string, R extends Reply, Body extends z.ZodType>(path: P, reply: R, what: string, body: Schema<Body>): Operation<P, Body, R>;
export function put(path: string, reply: Reply, what: string, body: Schema<z.ZodType>): Operation {
  return declare('PUT', path, reply, what, body);
}

/**
 * A WebSocket stream that answers no plain GET (streams that do are declared as their GET
 * operation, whose path the socket shares); `Frame` is what each server frame holds, as a type only.
 */
export interface Socket<P extends string = string, Frame = unknown> {
  readonly path: P;
  readonly frame?: Frame;
}

export function socket<Frame>(): <P extends string>(path: P) => Socket<P, Frame> {
  return (path) => ({ path });
}

/** The operation's path with its `:name` segments filled in (each encoded as one segment). */
export function pathOf(op: Operation | Socket, params: Readonly<Record<string, string>> = {}): string {
  return op.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.path} needs :${name}`);
    return encodeURIComponent(value);
  });
}
