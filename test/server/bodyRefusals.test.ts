/**
 * A body refused before it was read (413 declared too large, 503 over the in-flight budget) is
 * answered so that a client still sending it reads the answer, not a connection reset; and a
 * client that never stops sending is still cut off (lingeringClose.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request } from '../support/helpers.ts';
import { rawUpload } from '../support/rawUpload.ts';
import { LINGER_MS } from '../../src/server/lingeringClose.ts';

const MIB = 1024 * 1024;

/** Declares `declared` bytes and writes `sent` of them, reading nothing for its first `deafMs`: the answer must still be there. */
const upload = (port: number, declared: number, sent: number, deafMs: number) => rawUpload({ port, declared, sent, deafMs });

test('a body declared over the limit is answered 413 to a client still writing it, not reset', async () => {
  const host = await startTestServer({ bodyLimit: MIB });
  try {
    const port = Number(new URL(host.url).port);
    const results = await Promise.all(Array.from({ length: 4 }, () => upload(port, 24 * MIB, 24 * MIB, 300)));
    for (const result of results) {
      assert.equal(result.status, 413, `ended by ${result.ended} with ${JSON.stringify(result.answer.slice(0, 120))}`);
      assert.match(result.answer, /Connection: close/i);
      assert.match(result.answer, /"too_large"/);
    }
    assert.equal((await request(host.url, 'GET', '/.well-known/health')).status, 200);
  } finally {
    await host.close();
  }
});

test('a body over the in-flight budget is answered 503 with Retry-After to a client still writing it, not reset', async () => {
  const host = await startTestServer({ bodyLimit: 32 * MIB, bodyInFlight: 32 * MIB });
  try {
    const port = Number(new URL(host.url).port);
    // One upload declared at the whole budget holds it (it sends a little, then nothing).
    const holder = upload(port, 32 * MIB, MIB, 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const results = await Promise.all(Array.from({ length: 4 }, () => upload(port, 16 * MIB, 16 * MIB, 300)));
    for (const result of results) {
      assert.equal(result.status, 503, `ended by ${result.ended} with ${JSON.stringify(result.answer.slice(0, 120))}`);
      assert.match(result.answer, /Retry-After: 1/i);
      assert.match(result.answer, /"busy"/);
    }
    // The holder is still inside its idle time, not cut off with the others.
    assert.equal(await Promise.race([holder.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 100, 'open'))]), 'open');
  } finally {
    await host.close();
  }
});

test('fetch posting a body over the limit gets the 413 answer, not a failed request', async () => {
  const host = await startTestServer({ bodyLimit: MIB });
  try {
    const reply = await fetch(`${host.url}/assets/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(24 * MIB, 0x20),
    });
    assert.equal(reply.status, 413);
    assert.equal(((await reply.json()) as { error: { code: string } }).error.code, 'too_large');
  } finally {
    await host.close();
  }
});

test('a refused client that never stops sending and never reads is cut off after the linger', async () => {
  const host = await startTestServer({ bodyLimit: MIB });
  try {
    const port = Number(new URL(host.url).port);
    // Declares a terabyte and keeps writing for a minute, deaf throughout.
    const endless = await upload(port, 1024 * 1024 * MIB, 1024 * 1024 * MIB, 60_000);
    assert.ok(endless.closedAfterMs >= LINGER_MS - 100, `closed after ${endless.closedAfterMs} ms, before the linger`);
    assert.ok(endless.closedAfterMs < LINGER_MS + 5_000, `closed after ${endless.closedAfterMs} ms`);
    assert.equal((await request(host.url, 'GET', '/.well-known/health')).status, 200);
  } finally {
    await host.close();
  }
});
