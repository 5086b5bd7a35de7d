/**
 * How long the MCP tools take on a store of N snippets (default 10k), through the SDK's client
 * against a host on port 0. Not part of `npm run bench` (whose table compares Satchel with
 * baselines); run it by hand:
 *   PATH=$PWD/node_modules/node/bin:$PATH node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/mcpTools.ts 10000
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer } from '../support/helpers.ts';
import { connectMcp } from '../support/mcpClient.ts';
import { SATCHEL_APPLICATION } from '../../src/core/assets/origin.ts';
import type { Seed } from '../../src/core/piecesTypes.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

const size = Number(process.argv[2] ?? 10_000);
const RUNS = 5;
const filler = 'lorem ipsum '.repeat(60);

/** A TypeScript snippet of about 800 bytes; every hundredth is tagged `hundred`. */
function seed(i: number): Seed {
  const raw = `export function f${i}(a: number) {\n  return a * ${i};\n}\n// ${filler}`;
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: SATCHEL_APPLICATION,
      format: { fragment: { string: { raw }, metadata: { ext: 'ts' } } },
      metadata: i % 100 === 0 ? { tags: [{ text: 'hundred' }] } : {},
    },
  };
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

const host = await startTestServer();
let client: Client | undefined;
try {
  await Promise.all(Array.from({ length: size }, (_, i) => host.core.assets.writes.create(seed(i), { author: TEST_AUTHOR })));
  const connected = await connectMcp(host.url, 'mcp-bench');
  client = connected;
  const calls: Array<[string, Record<string, unknown>]> = [
    ['search_snippets', { query: 'lorem' }],
    ['search_snippets', { query: `f${size - 1}` }],
    ['search_snippets', { query: 'lorem', language: 'py' }],
    ['search_snippets', { tags: ['hundred'] }],
    ['search_snippets', { language: 'ts' }],
    ['search_snippets', { language: 'py' }],
    ['list_recent_snippets', { limit: 50 }],
    ['check_snippet_saved', { content: `export function f42(a: number) {\n  return a * 42;\n}\n// ${filler}` }],
    ['get_snippet', { id: host.core.assets.newest(1)[0] }],
  ];
  console.log(`${size} snippets; median of ${RUNS} calls, ms`);
  for (const [name, args] of calls) {
    // The SDK's call, unparsed: what is timed is the round trip.
    const ms = await median(() => connected.callTool({ name, arguments: args }));
    console.log(`${ms.toFixed(1).padStart(8)}  ${name} ${JSON.stringify(args).slice(0, 60)}`);
  }
  console.log(`${(await median(() => connected.listTools())).toFixed(1).padStart(8)}  tools/list`);
  console.log(`${(await median(() => connected.listResources())).toFixed(1).padStart(8)}  resources/list`);
} finally {
  await client?.close();
  await host.close();
}
