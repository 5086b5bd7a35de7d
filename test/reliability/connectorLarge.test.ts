/**
 * The connector's questions about a 50 MB copy (issue 26): POST /{application}/suggestion, POST
 * /satchel/connector/saved and MCP check_snippet_saved answer while health answers within 1 s. A copy
 * is judged by its first 256 KiB, the part that is fingerprinted: counting the non-blank characters of
 * all of it held the event loop 4-13 s, and the suggestion's echo of the copy is sent with turns.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, raw, sleep } from './support.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';
import { APPLICATION } from './writes.ts';

const TEXT_BYTES = 50 * 1024 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json' };
let host: HostProcess;
let port = 0;
let appId = '';

/** Copies of the two costliest shapes: lines of code, and punctuation with no code at all. */
const shapes: Record<string, () => string> = {
  code: () => 'const value_0123456789 = compute(alpha, beta, gamma); // padding\n'.repeat(Math.ceil(TEXT_BYTES / 66)),
  punctuation: () => '- '.repeat(TEXT_BYTES / 2),
};

before(async () => {
  host = new HostProcess(tempDir('satchel-rel-connector-'));
  port = (await host.waitFor('serving')).port!;
  const connected = await raw(port, { method: 'POST', path: '/connect', headers: JSON_HEADERS, body: JSON.stringify({ application: APPLICATION }) });
  assert.equal(connected.status, 200, connected.text);
  appId = (connected.json as { application: { id: string } }).application.id;
});

after(async () => {
  await host?.kill();
});

/**
 * A request whose reply is kept only by its ends and length: parsing a 50 MB echo here would hold
 * this process's event loop, where health is probed, and count against the host.
 */
function post(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; bytes: number; head: string; tail: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      let bytes = 0;
      let head = '';
      let tail = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < 1024) head += chunk.subarray(0, 1024).toString('latin1');
        tail = (tail + chunk.subarray(-1024).toString('latin1')).slice(-1024);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, head, tail }));
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout POST ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The three doors that ask about a copy, as request bodies. */
function requests(text: string): Array<{ door: string; path: string; headers: Record<string, string>; body: string }> {
  return [
    { door: 'suggestion', path: `/${appId}/suggestion`, headers: JSON_HEADERS, body: JSON.stringify({ asset: { format: { fragment: { string: { raw: text } } } } }) },
    { door: 'saved', path: '/satchel/connector/saved', headers: JSON_HEADERS, body: JSON.stringify({ text }) },
    {
      door: 'mcp check_snippet_saved',
      path: '/mcp',
      headers: { ...JSON_HEADERS, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_snippet_saved', arguments: { content: text } } }),
    },
  ];
}

test('suggest, the saved question and check_snippet_saved answer about a 50 MB copy while health answers within 1 s', async () => {
  const wrong: string[] = [];
  for (const [shape, make] of Object.entries(shapes)) {
    for (const { door, path, headers, body } of requests(make())) {
      const probe = probeHealth(port, host);
      await sleep(300);
      const started = performance.now();
      const reply = await post(path, headers, body);
      const ms = Math.round(performance.now() - started);
      await sleep(300);
      const health = await probe.stop();
      figures('connector-large-copy', { door, shape, mib: Math.round(body.length / 1024 / 1024), status: reply.status, reply_mib: Math.round(reply.bytes / 1024 / 1024), ms, health_slowest_ms: health.slowest, loop_held_ms: health.held ?? -1 });
      // A host that limits the size of what it is asked about may refuse (413); it must not stall.
      const what = `${door} (${shape})`;
      if (reply.status !== 200 && reply.status !== 413) wrong.push(`${what} answered ${reply.status} ${reply.head.slice(0, 200)}`);
      if (reply.status === 200 && door === 'suggestion') {
        // The reply is {"reuse":…,"save":…,"target":{"seed":<the copy>,…},…}: the copy is echoed whole.
        if (!/^\{"reuse":\{"suggested":false,[^]*"save":\{"suggested":(true|false)\}/.test(reply.head)) wrong.push(`${what}: ${reply.head.slice(0, 200)}`);
        if (reply.bytes < TEXT_BYTES) wrong.push(`${what}: a reply of ${reply.bytes} bytes`);
      }
      if (reply.status === 200 && door === 'saved' && !reply.head.startsWith('{"kind":')) wrong.push(`${what}: ${reply.head.slice(0, 200)}`);
      if (health.failures > 0) wrong.push(`health failed ${health.failures} times behind ${what}`);
      if (waitedOf(health) >= 1000) wrong.push(`health waited ${waitedOf(health)} ms (round trip ${health.slowest} ms) behind ${what}`);
    }
  }
  assert.deepEqual(wrong, []);
});
