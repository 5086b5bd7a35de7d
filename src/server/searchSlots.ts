/**
 * One line for search work at every door: GET and POST /assets/search, /search/full_text,
 * /search/neural_code and the MCP tool search_snippets take a slot of the same ExchangeSlots, so
 * 200 concurrent searches run a few at a time, each starting on a turn of its own, and health
 * answers between them; past the line (or a long wait) a search is refused as busy (503 with
 * Retry-After). MCP's own slots bound whole exchanges and never covered the plain HTTP routes:
 * 200 concurrent /search/neural_code held health for seconds.
 */
import type { Context } from 'koa';
import { ExchangeSlots, type SlotLimits } from './mcp/exchangeSlots.ts';
import { HttpError } from './errors.ts';
import { whenClientLeaves } from './ndjson.ts';

/**
 * Running: a search is synchronous SQLite work and a reply encoded with turns between its pages;
 * a few at once keep the cores busy without a burst being encoded interleaved (each then holding
 * its results in memory). Waiting and wait: as MCP's, so a burst of a few hundred is answered.
 */
export const SEARCH_SLOT_LIMITS: SlotLimits = { running: 4, waiting: 256, waitMs: 20_000 };

export function searchSlots(limits: SlotLimits = SEARCH_SLOT_LIMITS): ExchangeSlots {
  return new ExchangeSlots(limits, 'searches');
}

/**
 * Runs a search route's `handler` once it holds a slot, and holds the slot until its reply is
 * sent or its client leaves (a streamed reply is produced after the handler returned). A client
 * that leaves while waiting is never searched for.
 */
export async function withSearchSlot(ctx: Context, slots: ExchangeSlots, handler: () => Promise<void> | void): Promise<void> {
  const left = new AbortController();
  whenClientLeaves(ctx, () => left.abort());
  let leave: (() => void) | undefined;
  try {
    leave = await slots.enter(left.signal);
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) ctx.set('Retry-After', '1');
    throw error;
  }
  if (leave === undefined) return;
  // The client may have left between the slot's grant and now: its 'close' came already.
  if (left.signal.aborted) return leave();
  ctx.res.once('close', leave);
  try {
    await handler();
  } catch (error) {
    leave();
    throw error;
  }
}
