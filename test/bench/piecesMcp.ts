/**
 * The Pieces MCP paths' costs: building a server with Satchel's own tools and with Pieces' too,
 * and ask_pieces_ltm / workstream_summaries_full_text_search on a store of N snippets and N/10
 * memories, through the SDK's streamable HTTP and SSE clients against a host on port 0 (median of
 * 5). Not part of `npm run bench`; run it by hand:
 *   PATH=$PWD/node_modules/node/bin:$PATH node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/piecesMcp.ts 2000
 */
import { startTestServer } from '../support/helpers.ts';
import { connectMcp } from '../support/mcpClient.ts';
import { createMcpServer } from '../../src/server/mcp/mcpServer.ts';
import { ExchangeSlots } from '../../src/server/mcp/exchangeSlots.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

const size = Number(process.argv[2] ?? 2_000);
const RUNS = 5;
const topics = ['cache', 'retry', 'deploy', 'billing', 'search', 'auth', 'queue', 'metrics'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const t = await startTestServer();
try {
  const slots = new ExchangeSlots();
  for (const flavour of ['satchel', 'pieces'] as const) {
    createMcpServer(t.core, authorOf('mcp', 'warm'), slots, flavour);
    const start = performance.now();
    for (let i = 0; i < 50; i++) createMcpServer(t.core, authorOf('mcp', 'bench'), slots, flavour);
    console.log(`build a ${flavour} server: ${((performance.now() - start) / 50).toFixed(2)} ms`);
  }
  for (let i = 0; i < size; i++) {
    const topic = topics[i % topics.length]!;
    await t.core.assets.writes.create(
      { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: `export function ${topic}${i}(a: number) {\n  return a * ${i};\n}\n` }, metadata: { ext: 'ts' } } }, metadata: { name: `${topic} helper ${i}` } } },
      { author: TEST_AUTHOR },
    );
  }
  for (let i = 0; i < size / 10; i++) {
    const topic = topics[i % topics.length]!;
    await t.core.memories.save({ title: `${topic} decision ${i}`, summary: `We chose the ${topic} design ${i} because of load.` }, authorOf('mcp', 'bench'));
  }
  for (const [label, path] of [
    ['streamable', '/model_context_protocol/2025-03-26/mcp'],
    ['sse', '/model_context_protocol/2024-11-05/sse'],
  ] as const) {
    const client = await connectMcp(t.url, 'bench', path, label);
    for (const [tool, args] of [
      ['ask_pieces_ltm', { question: 'why did we choose the cache design?', chat_llm: 'gpt-4o' }],
      ['workstream_summaries_full_text_search', { query: 'billing decision' }],
    ] as const) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        await client.callTool({ name: tool, arguments: args });
        times.push(performance.now() - start);
      }
      console.log(`${label} ${tool} on ${size} snippets + ${size / 10} memories: ${median(times).toFixed(1)} ms (median of ${RUNS})`);
    }
    await client.close();
  }
} finally {
  await t.close();
}
