/**
 * Lines for heavy work, each an ExchangeSlots: a few run at once, each starting on a turn of its
 * own so health answers between them, a bounded number wait, and past that (or a long wait) a
 * request is refused as busy (503 with Retry-After).
 *
 * Searches: GET and POST /assets/search, /search/full_text, /search/neural_code and the MCP tool
 * search_snippets take a slot of one line. MCP's own slots bound whole exchanges and never covered
 * the plain HTTP routes: 200 concurrent /search/neural_code held health for seconds.
 *
 * Reads of one whole asset or revision (GET /asset/{id}, GET /assets/{id}, a revision's text):
 * a 4 Mi-character asset is 12 MiB of JSON and an older revision's text is rebuilt from deltas;
 * 100 such reads arriving together ran back to back before health's turn (health 0.8–4.4 s).
 */
import type { Context } from 'koa';
import { ExchangeSlots, type SlotLimits } from './mcp/exchangeSlots.ts';
import { HttpError } from './errors.ts';
import { whenClientLeaves } from './ndjson.ts';

/**
 * Running: a search is synchronous SQLite work and a reply encoded with turns between its pages;
 * a few at once keep the cores busy without a burst being encoded interleaved (each then holding
 * its results in memory). Waiting: as MCP's, so a burst of a few hundred is answered. Wait: longer
 * than MCP's, since one search can send a whole library (20 concurrent 32 MiB replies took 23 s
 * on a 2-core CI machine, and the last four were refused at 20 s); a refused client only retries
 * at the back of the line, so refusing sooner frees nothing.
 */
export const SEARCH_SLOT_LIMITS: SlotLimits = { running: 4, waiting: 256, waitMs: 60_000 };

export function searchSlots(limits: SlotLimits = SEARCH_SLOT_LIMITS): ExchangeSlots {
  return new ExchangeSlots(limits, 'searches');
}

/** Whole-record reads: cheap for most records, so more run at once; a burst of clients reading a library one by one waits a little. */
export const READ_SLOT_LIMITS: SlotLimits = { running: 8, waiting: 1024, waitMs: 20_000 };

export function readSlots(limits: SlotLimits = READ_SLOT_LIMITS): ExchangeSlots {
  return new ExchangeSlots(limits, 'reads of whole snippets');
}

/**
 * Runs a route's `handler` once it holds a slot of `slots`, and holds the slot until its reply is
 * sent or its client leaves (a streamed reply is produced after the handler returned). A client
 * that leaves while waiting is never searched for.
 */
export async function withSlot(ctx: Context, slots: ExchangeSlots, handler: () => Promise<void> | void): Promise<void> {
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
