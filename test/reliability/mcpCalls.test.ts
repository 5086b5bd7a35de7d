/**
 * What one MCP call costs the host (issue 26): 200 concurrent calls against 200 concurrent
 * requests to an interface route doing the same work (a bounded read of the store), with health
 * probed. Before, each POST /mcp built its own MCP server (an Ajv instance, the tools' zod schemas
 * and registrations): 3.2–5.7 ms of host CPU per call against 1.1–2.0 ms for the search, and
 * health held 0.6–1.2 s by 200 calls on an empty store.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, percentile, raw, type RawReply } from './support.ts';
import { withHealth } from './healthProbe.ts';

const CONCURRENT = 200;
const ROUNDS = 3;
let dataDir = '';
let host: HostProcess;
let port = 0;

before(async () => {
  dataDir = tempDir('satchel-rel-mcpcalls-');
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving', 60_000)).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** CPU time the process has used so far (user + system, every thread), in ms; Linux's /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let nextId = 1;

const sends = {
  mcp: (): Promise<RawReply> =>
    raw(port, {
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'list_recent_snippets', arguments: { limit: 1 } } }),
      timeoutMs: 60_000,
    }),
  search: (): Promise<RawReply> =>
    raw(port, {
      method: 'POST',
      path: '/assets/search?transferables=false',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'probe' }),
      timeoutMs: 60_000,
    }),
};

/** `CONCURRENT` requests at once: host CPU per request and how long the host's loop was held meanwhile (healthProbe.ts). */
async function flood(kind: keyof typeof sends): Promise<{ cpu_ms: number; health_ms: number; replies: RawReply[] }> {
  const before = cpuMs(host.pid);
  const { result, waited } = await withHealth({ port, host }, () => Promise.all(Array.from({ length: CONCURRENT }, sends[kind])));
  return { cpu_ms: (cpuMs(host.pid) - before) / CONCURRENT, health_ms: waited, replies: result };
}

test('200 concurrent MCP calls cost the host about what 200 interface searches do, and hold health no longer', async () => {
  // Both paths compiled and warm before anything is measured.
  for (const kind of ['search', 'mcp'] as const) await Promise.all(Array.from({ length: 50 }, sends[kind]));
  const measured = { search: [] as Array<{ cpu_ms: number; health_ms: number }>, mcp: [] as Array<{ cpu_ms: number; health_ms: number }> };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['search', 'mcp'] as const) {
      const { replies, ...figure } = await flood(kind);
      for (const reply of replies) assert.equal(reply.status, 200, reply.text.slice(0, 300));
      if (kind === 'mcp') assert.match(replies[0]!.text, /No snippets are saved yet/);
      measured[kind].push(figure);
      figures('mcp-calls', { kind, round, concurrent: CONCURRENT, cpu_ms_per_call: figure.cpu_ms.toFixed(2), loop_held_ms: figure.health_ms });
    }
  }
  const median = (kind: keyof typeof measured, what: 'cpu_ms' | 'health_ms') => percentile(measured[kind].map((figure) => figure[what]), 50);
  figures('mcp-calls-median', {
    concurrent: CONCURRENT,
    mcp_cpu_ms: median('mcp', 'cpu_ms').toFixed(2),
    search_cpu_ms: median('search', 'cpu_ms').toFixed(2),
    mcp_health_ms: median('mcp', 'health_ms'),
    search_health_ms: median('search', 'health_ms'),
  });
  // Margins for a shared 2-core machine; the server built per call cost 2.5–4.3 times the search.
  assert.ok(median('mcp', 'cpu_ms') < 2 * median('search', 'cpu_ms'), `an MCP call cost ${median('mcp', 'cpu_ms')} ms of host CPU, a search ${median('search', 'cpu_ms')} ms`);
  assert.ok(
    median('mcp', 'health_ms') < 2 * median('search', 'health_ms') + 250,
    `health waited ${median('mcp', 'health_ms')} ms behind 200 MCP calls, ${median('search', 'health_ms')} ms behind 200 searches`,
  );
});
