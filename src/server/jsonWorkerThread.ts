/**
 * The JSON worker thread (jsonWorker.ts): decodes, measures and parses a large body off the event
 * loop and, given the operation the router will run, checks it with that operation's schema here.
 * What crosses back to the event loop (by structured clone, which costs it per value) is then only
 * what the route keeps: a body the schema refuses crosses as its 400 message, and keys a stripping
 * schema drops (the 15 million numbers of an unknown `padding` field) never cross at all.
 */
import { parentPort } from 'node:worker_threads';
import { jsonShape } from './jsonDepth.ts';
import { allOperations } from '../wire/operations.ts';
import { check } from '../wire/validate.ts';
import type { ParseReply, ParseRequest } from './jsonProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('jsonWorkerThread must run in a worker thread');

const decoder = new TextDecoder('utf-8', { fatal: true });
const schemas = new Map(allOperations.flatMap(({ name, op }) => (op.body ? [[name, { schema: op.body, what: op.what }] as const] : [])));

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
  const declared = request.operation === undefined ? undefined : schemas.get(request.operation);
  if (request.operation === undefined || declared === undefined) return { id, ok: true, value };
  const result = check(declared.schema, value, declared.what);
  return result.ok
    ? { id, ok: true, value: result.data, checked: { operation: request.operation, ok: true } }
    : { id, ok: true, value: undefined, checked: { operation: request.operation, ok: false, message: result.message } };
}

port.on('message', (request: ParseRequest) => port.postMessage(answer(request)));
