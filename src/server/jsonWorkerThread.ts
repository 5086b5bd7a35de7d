/**
 * The JSON worker thread (jsonWorker.ts): decodes, measures and parses a large body off the event
 * loop and, given the operation the router will run, checks it with that operation's schema here.
 * What crosses back to the event loop (by structured clone, which costs it per value) is then only
 * what the route keeps: a body the schema refuses crosses as its 400 message, keys a stripping
 * schema drops (the 15 million numbers of an unknown `padding` field) never cross at all, and a
 * seed core's first checks refuse (over the content limit) crosses as core's 413 or 400.
 */
import { parentPort } from 'node:worker_threads';
import { jsonShape } from './jsonDepth.ts';
import type { z } from 'zod';
import { allOperations } from '../wire/operations.ts';
import { assetOperations } from '../wire/assets.ts';
import { check } from '../wire/validate.ts';
import { DomainError } from '../core/errors.ts';
import { checkedSeed } from '../core/assets/seedChecks.ts';
import type { ParseReply, ParseRequest, SchemaCheck } from './jsonProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('jsonWorkerThread must run in a worker thread');

const decoder = new TextDecoder('utf-8', { fatal: true });
/** A body checked for one operation: the schema's output, or the refusal the route would give. */
type Checker = (value: unknown, operation: string) => { readonly value: unknown; readonly checked: SchemaCheck };

/**
 * The schema's check, then `first`: checks core runs before any other work on that body, so a body
 * they refuse is refused here with the same error instead of crossing to the loop to be refused.
 */
function checker<S extends z.ZodType>(schema: S, what: string, first?: (body: z.output<S>) => void): Checker {
  return (value, operation) => {
    const result = check(schema, value, what);
    if (!result.ok) return { value: undefined, checked: { operation, ok: false, code: 'invalid_input', message: result.message } };
    try {
      first?.(result.data);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'invalid_input' || error.code === 'too_large')) {
        return { value: undefined, checked: { operation, ok: false, code: error.code, message: error.message } };
      }
      // Anything else is core's to answer: the same checks run again on the loop (prepareSeed) and throw there.
    }
    return { value: result.data, checked: { operation, ok: true } };
  };
}

const checkers = new Map<string, Checker>(allOperations.flatMap(({ name, op }) => (op.body ? [[name, checker(op.body, op.what)] as const] : [])));
// Create and draft hand the seed to prepareSeed, whose first step is checkedSeed (draft only when the seed has an asset).
checkers.set('assetOperations.create', checker(assetOperations.create.body, assetOperations.create.what, (seed) => void checkedSeed(seed)));
checkers.set('assetOperations.draft', checker(assetOperations.draft.body, assetOperations.draft.what, (seed) => void (seed.asset && checkedSeed(seed))));

function answer(request: ParseRequest): ParseReply {
  const { id } = request;
  let text: string;
  try {
    text = decoder.decode(request.bytes);
  } catch {
    return { id, ok: false, code: 'invalid_encoding', message: '' };
  }
  const shape = jsonShape(text);
  if (shape.depth > request.maxDepth) return { id, ok: false, code: 'too_deep', message: '' };
  if (shape.nodes > request.maxNodes) return { id, ok: false, code: 'too_complex', message: '' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { id, ok: false, code: 'malformed_json', message: error instanceof Error ? error.message : String(error) };
  }
  const checks = request.operation === undefined ? undefined : checkers.get(request.operation);
  if (request.operation === undefined || checks === undefined) return { id, ok: true, value };
  return { id, ok: true, ...checks(value, request.operation) };
}

port.on('message', (request: ParseRequest) => port.postMessage(answer(request)));
