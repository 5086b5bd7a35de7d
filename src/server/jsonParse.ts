/**
 * Parses what clients send, request bodies and WebSocket frames alike, within one set of limits:
 * nesting depth and the number of strings, objects and arrays are checked in one pass before
 * JSON.parse, and texts from `workerFrom` bytes on are parsed on a worker thread so the event loop
 * keeps answering. A failure is the HttpError the edge answers with (400, or 413 for complexity).
 */
import { HttpError } from './errors.ts';
import { jsonShape } from './jsonDepth.ts';
import { JsonWorker, type ParseLimits, type ParseOutcome } from './jsonWorker.ts';
import type { SchemaCheck } from './jsonProtocol.ts';
import type { Disposable } from '../core/events.ts';

/** No wire model nests anywhere near this deep. */
const MAX_DEPTH = 256;
/**
 * Strings, objects and arrays in one text. A wire document has a few thousand; a million short
 * strings take the event loop ~0.4 s to receive from the parser, so beyond this a text is refused.
 */
const MAX_NODES = 1_000_000;
const LIMITS: ParseLimits = { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES };

const decoder = new TextDecoder('utf-8', { fatal: true });

export class JsonParser implements Disposable {
  private readonly worker = new JsonWorker();
  private readonly workerFrom: number;

  /** Texts of `workerFrom` bytes or more are parsed off the event loop. */
  constructor(workerFrom: number) {
    this.workerFrom = workerFrom;
  }

  /** The value of the JSON text `raw`; `what` names it in the error ("request body", "frame"). */
  async parse(raw: Buffer, what: string): Promise<unknown> {
    return (await this.parseFor(raw, what)).value;
  }

  /**
   * As parse; a text parsed on the worker is also checked there with the schema of `operation` (a
   * declared name), and `checked` says how: then `value` is the schema's output (undefined if refused).
   */
  async parseFor(raw: Buffer, what: string, operation?: string): Promise<{ readonly value: unknown; readonly checked?: SchemaCheck }> {
    const outcome = raw.length >= this.workerFrom ? await this.worker.parse(raw, LIMITS, operation) : parseHere(raw);
    const value = unwrap(outcome, what);
    return outcome.ok && outcome.checked !== undefined ? { value, checked: outcome.checked } : { value };
  }

  dispose(): void {
    this.worker.dispose();
  }
}

function parseHere(raw: Buffer): ParseOutcome {
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    return { ok: false, code: 'invalid_encoding', message: '' };
  }
  const shape = jsonShape(text);
  if (shape.depth > MAX_DEPTH) return { ok: false, code: 'too_deep', message: '' };
  if (shape.nodes > MAX_NODES) return { ok: false, code: 'too_complex', message: '' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, code: 'malformed_json', message: (error as Error).message };
  }
}

function unwrap(outcome: ParseOutcome, what: string): unknown {
  if (outcome.ok) return outcome.value;
  switch (outcome.code) {
    case 'invalid_encoding':
      throw new HttpError(400, 'invalid_encoding', `The ${what} is not valid UTF-8.`);
    case 'too_deep':
      // Deep documents overflow the stack of validators and renderers further in.
      throw new HttpError(400, 'too_deep', `The ${what} nests deeper than ${MAX_DEPTH} levels.`);
    case 'too_complex':
      throw new HttpError(413, 'too_complex', `The ${what} holds more than ${MAX_NODES} strings, objects and arrays.`);
    default:
      throw new HttpError(400, 'malformed_json', `The ${what} is not valid JSON: ${outcome.message}`);
  }
}
