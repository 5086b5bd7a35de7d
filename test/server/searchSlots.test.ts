/**
 * Search work takes one line at every door: the HTTP search routes and MCP search_snippets share a
 * few running slots and a bounded waiting line; past it a search is refused as busy (503 with
 * Retry-After), an MCP search as a tool error. Before, only MCP had a line: 200 concurrent
 * /search/neural_code all ran at once and held health for seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../support/helpers.ts';
import { SEARCH_SLOT_LIMITS } from '../../src/server/searchSlots.ts';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

test('concurrent searches run a few at a time through every door; past the line they are refused busy', { timeout: 60_000 }, async () => {
  const t = await startTestServer();
  try {
    // Every search by query asks the semantic recall for its plan first: held there, it keeps its slot.
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    let inFlight = 0;
    let most = 0;
    const plan = t.core.recall.plan.bind(t.core.recall);
    t.core.recall.plan = async (query: string) => {
      most = Math.max(most, ++inFlight);
      await opened;
      inFlight--;
      return plan(query);
    };
    const { running, waiting } = SEARCH_SLOT_LIMITS;
    const extra = 12;
    const refused: Array<{ status: number; retryAfter: string | null; code: unknown }> = [];
    let refusedAll = (): void => {};
    const allRefused = new Promise<void>((resolve) => (refusedAll = resolve));
    const searches = Array.from({ length: running + waiting + extra }, async (_, i) => {
      const path = i % 2 === 0 ? `/search/neural_code?query=q${i}&transferables=false` : `/assets/search?query=q${i}&transferables=false`;
      const reply = await fetch(`${t.url}${path}`);
      const answer = { status: reply.status, retryAfter: reply.headers.get('retry-after'), code: ((await reply.json()) as { error?: { code?: unknown } }).error?.code };
      if (reply.status === 503 && refused.push(answer) === extra) refusedAll();
      return answer;
    });
    await allRefused;
    for (const answer of refused) assert.deepEqual(answer, { status: 503, retryAfter: '1', code: 'busy' });
    assert.equal(most, running, 'searches ran at once');

    // The line is shared: an MCP search now is refused too, told to retry.
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_snippets', arguments: { query: 'anything' } } }),
    });
    const result = ((await mcp.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /searches are waiting for their turn; retry shortly/);

    open();
    const answers = await Promise.all(searches);
    assert.equal(answers.filter((answer) => answer.status === 200).length, running + waiting);
    assert.equal(answers.filter((answer) => answer.status === 503).length, extra);
    assert.equal(most, running, 'never more than the running slots at once');
  } finally {
    await t.close();
  }
});
