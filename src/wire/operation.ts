/**
 * One declaration per operation: method, path and body schema. The route parses with it, the client
 * builds its request from the schema's input type, so a field that drifts on either side stops
 * compiling instead of failing at run time.
 */
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation<Body extends z.ZodType = z.ZodType> {
  readonly method: Method;
  /** Koa-style path; `:name` segments are filled by `pathOf`. */
  readonly path: string;
  readonly body: Body;
  /** The published model's name, used in 400 messages ("SeededConnectorCreation: …"). */
  readonly what: string;
}

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
export type BodyIn<O extends Operation> = z.input<O['body']>;
/** What a route hands to core (after parsing). */
export type BodyOut<O extends Operation> = z.output<O['body']>;

export function operation<Body extends z.ZodType>(method: Method, path: string, what: string, body: Body): Operation<Body> {
  return { method, path, what, body };
}

/** The operation's path with its `:name` segments filled in (each encoded as one segment). */
export function pathOf(op: Operation, params: Readonly<Record<string, string>> = {}): string {
  return op.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.path} needs :${name}`);
    return encodeURIComponent(value);
  });
}
