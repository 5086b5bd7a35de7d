/**
 * Text costs linear time, whatever the characters (issue 13 A.1–A.2): pathological shapes — long
 * runs of one character of each class, alternations, repeated tokens, unbalanced brackets, one
 * long line, mixed scripts — are sent at 16 KiB and at 256 KiB through every route that processes
 * text (create, draft, update, reclassify, search GET and POST, suggest, intention, export,
 * related, recommended, rename, summarize; classification runs inside create, draft and
 * intention). The larger must answer within a few seconds and within a small multiple of 16× the
 * smaller, and /.well-known/health, probed all through each larger request, answers within 1 s.
 * The host is a separate process (the shipped CLI), so a request that blocks its event loop
 * cannot block this test's clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, jsonErrorCode, raw, type RawReply } from './support.ts';
import { APPLICATION } from './writes.ts';

const SMALL = 16 * 1024;
const LARGE = 256 * 1024;
/** "A few seconds": the most a 256 KiB request may take on a loaded two-core machine. */
const LARGE_LIMIT_MS = 5_000;
/** Linear time gives 16×; this allows 4× that for noise, plus a fixed allowance for tiny baselines. */
const RATIO_LIMIT = 4 * 16;
const RATIO_SLACK_MS = 400;
const HEALTH_LIMIT_MS = 1_000;
/** Long enough for a request the old code needed minutes for to fail, not hang the suite. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * One unit per character class, repeated to the size. Each shape ends in `¤`, a character of no
 * class a tokenizer or regex here looks for: a run that matches up to the end (`[?!.]+$`), or a
 * run whose pattern needs a different character after it (`([A-Z]+)([A-Z][a-z])`), then fails
 * from every position of the run, which is how backtracking goes quadratic.
 */
const CLASS_RUNS: Record<string, string> = {
  upper: 'A',
  lower: 'a',
  digit: '7',
  space: ' ',
  tab: '\t',
  newline: '\n',
  dot: '.',
  bang: '!',
  comma: ',',
  underscore: '_',
  dollar: '$',
  'double quote': '"',
  'single quote': "'",
  backtick: '`',
  'open paren': '(',
  'close paren': ')',
  'open bracket': '[',
  'open brace': '{',
  'less than': '<',
  star: '*',
  hash: '#',
  dash: '-',
  backslash: '\\',
  nbsp: '\u00a0',
  'e acute': 'é',
  han: '中',
  emoji: '😀',
};

/** Alternations, repeated tokens, unbalanced brackets, one long line, mixed scripts. */
const PATTERNS: Record<string, string> = {
  'upper-lower': 'Aa',
  'lower-upper': 'aA',
  'upper-digit': 'A1',
  'letter-dot': 'a.',
  'dot-space': '. ',
  'comment closer': '*/ ',
  'html comment': '<!-- ',
  fences: '```~~~~',
  'repeated identifier': 'getUserById ',
  'repeated error': 'TypeError in fooBar ',
  'short sentences': 'Use the cache. ',
  'unbalanced brackets': '([{<',
  'one long line': 'x = f(y) + 1; ',
  'mixed scripts': 'aя中😀 ',
};

/** A few more alternations, generated (fixed seed, so a failure names a shape that reproduces). */
const GENERATED = fc.sample(
  fc.string({ unit: fc.constantFrom('A', 'a', '0', ' ', '.', '_', '(', '"', '\n', '`', '-', '>', 'é'), minLength: 2, maxLength: 4 }),
  { numRuns: 4, seed: 13 },
);

interface Shape {
  readonly name: string;
  text(size: number): string;
}

function run(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size - 1) + '¤';
}

const SHAPES: Shape[] = [
  ...Object.entries(CLASS_RUNS).map(([name, unit]) => ({ name: `run of ${name}`, text: (size: number) => run(unit, size) })),
  ...Object.entries(PATTERNS).map(([name, unit]) => ({ name, text: (size: number) => run(unit, size) })),
  ...GENERATED.map((unit) => ({ name: `generated ${JSON.stringify(unit)}`, text: (size: number) => run(unit, size) })),
];

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

interface Timed {
  readonly reply: RawReply;
  readonly ms: number;
  /** The slowest health answer while the request ran (0 when none was probed). */
  readonly healthMs: number;
}

/** Sends one request; with `probe`, asks for health every 100 ms until it is answered. */
async function timed(port: number, method: 'GET' | 'POST', path: string, body: unknown, probe: boolean): Promise<Timed> {
  let done = false;
  let healthMs = 0;
  const probing = (async () => {
    while (probe && !done) {
      const started = performance.now();
      try {
        const health = await raw(port, { path: '/.well-known/health', timeoutMs: 10_000 });
        assert.equal(health.status, 200);
      } catch {
        healthMs = Math.max(healthMs, 10_000);
        return;
      }
      healthMs = Math.max(healthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  try {
    const reply = await raw(port, {
      method,
      path,
      headers: JSON_HEADERS,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    return { reply, ms: performance.now() - started, healthMs };
  } finally {
    done = true;
    await probing;
  }
}

/** The first `n` characters of `text`, without a half surrogate pair at the end. */
function head(text: string, n: number): string {
  const cut = text.slice(0, n);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function seedOf(text: string): unknown {
  // No name and no language: the host names and classifies the text itself.
  return { type: 'SEEDED_ASSET', asset: { application: APPLICATION, format: { fragment: { string: { raw: text } } } } };
}

function ok(step: string, shape: string, size: number, reply: RawReply, allowed: readonly number[] = [200]): void {
  assert.ok(allowed.includes(reply.status), `${step} (${shape}, ${size}): ${reply.status} ${jsonErrorCode(reply) ?? ''} ${reply.text.slice(0, 200)}`);
}

/** A best-effort delete: when a step failed, its error is the one to report, not the clean-up's. */
async function cleanUp(port: number, path: string): Promise<void> {
  try {
    await raw(port, { method: 'POST', path, timeoutMs: REQUEST_TIMEOUT_MS });
  } catch {
    // The host is still busy with the failed step.
  }
}

/**
 * Every text route once for `text`; returns each step's time. Assets and the conversation it
 * makes are deleted afterwards (untimed), so every shape starts from the same store.
 */
async function throughRoutes(port: number, appId: string, shape: string, text: string, probe: boolean): Promise<Map<string, Timed>> {
  const size = text.length;
  const times = new Map<string, Timed>();
  const step = async (name: string, method: 'GET' | 'POST', path: string, body?: unknown, allowed?: readonly number[]): Promise<RawReply> => {
    const result = await timed(port, method, path, body, probe);
    times.set(name, result);
    ok(name, shape, size, result.reply, allowed);
    return result.reply;
  };
  const created = (await step('create', 'POST', '/assets/create', seedOf(text))).json as { id: string; formats: { iterable: Array<{ id: string }> } };
  const made = [created.id];
  try {
    await step('draft', 'POST', '/assets/draft', seedOf(text));
    const changed = structuredClone(created) as unknown as { formats: { iterable: Array<{ fragment: { string: { raw: string } } }> } };
    changed.formats.iterable[0]!.fragment.string.raw = `y${text}`;
    await step('update', 'POST', '/asset/update?transferables=false', changed);
    await step('reclassify', 'POST', '/asset/reclassify?transferables=false', { ext: 'py', asset: { id: created.id } });
    // A URL holds a few KiB: the GET query is the shape's start, searched over the stored text.
    // Only a query of nothing but spaces is the interface's one 500 (search with neither query nor tags).
    const searched = await step('search GET', 'GET', `/assets/search?transferables=false&query=${encodeURIComponent(head(text, 1000))}`, undefined, [200, 500]);
    if (searched.status === 500) assert.equal(jsonErrorCode(searched), 'search_unspecified', `search GET (${shape}, ${size})`);
    await step('search POST', 'POST', '/assets/search?transferables=false', {
      query: text,
      filters: { iterable: [{ phrase: { value: head(text, 1024) } }] },
    });
    await step('suggest', 'POST', `/${appId}/suggestion`, { asset: { format: { fragment: { string: { raw: text } } } } });
    const intention = await step('intention', 'POST', `/${appId}/intention`, { format: { fragment: { string: { raw: text } } } });
    made.push(intention.text.replace(/"/g, ''));
    await step('export MD', 'GET', `/asset/${created.id}/export?export_type=MD`);
    await step('export HTML', 'GET', `/asset/${created.id}/export?export_type=HTML`);
    await step('related', 'POST', '/assets/related', { iterable: [{ id: created.id }] });
    await step('recommended', 'POST', '/assets/recommended', {
      assets: { iterable: [{ id: created.id }] },
      interactions: { iterable: [{ asset: created.id, interactions: { touched: true } }] },
    });
    const conversation = (await raw(port, {
      method: 'POST',
      path: '/conversations/create?transferables=false',
      headers: JSON_HEADERS,
      body: JSON.stringify({ type: 'COPILOT', application: APPLICATION }),
    })).json as { id: string };
    try {
      for (const role of ['USER', 'ASSISTANT']) {
        const message = await raw(port, {
          method: 'POST',
          path: '/messages/create?transferables=false',
          headers: JSON_HEADERS,
          body: JSON.stringify({ role, fragment: { string: { raw: text } }, conversation: { id: conversation.id } }),
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
        ok('message', shape, size, message);
      }
      const renamed = await step('rename', 'POST', `/conversation/${conversation.id}/rename?transferables=false`);
      const title = (renamed.json as { name?: string }).name ?? '';
      assert.ok(title.length <= 80, `rename (${shape}, ${size}): a title of ${title.length} characters`);
      await step('summarize', 'POST', `/conversation/${conversation.id}/summarize`, {});
    } finally {
      await cleanUp(port, `/conversations/${conversation.id}/delete`);
    }
  } finally {
    for (const id of made) await cleanUp(port, `/assets/${id}/delete`);
  }
  return times;
}

test('every text route costs about linear time on pathological text, and health answers throughout', async (t) => {
  const dataDir = tempDir('satchel-rel-linear-');
  const host = new HostProcess(dataDir);
  t.after(async () => {
    await host.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await host.waitFor('serving');
  const port = host.port!;
  const connected = await raw(port, {
    method: 'POST',
    path: '/connect',
    headers: JSON_HEADERS,
    body: JSON.stringify({ application: { name: 'VS_CODE', version: '1', platform: 'LINUX' } }),
  });
  const appId = (connected.json as { application: { id: string } }).application.id;
  // Warm up (the language model loads, code is compiled) so the first shape is not charged for it.
  await throughRoutes(port, appId, 'warm-up', run('function warmUp() { return 1; }\n', 4096), false);

  const worst = { largeMs: 0, largeAt: '', ratio: 0, ratioAt: '', healthMs: 0, healthAt: '' };
  const failures: string[] = [];
  for (const shape of SHAPES) {
    const small = await throughRoutes(port, appId, shape.name, shape.text(SMALL), false);
    const large = await throughRoutes(port, appId, shape.name, shape.text(LARGE), true);
    for (const [route, big] of large) {
      const little = small.get(route)!;
      const where = `${route} on ${shape.name}`;
      const ratio = big.ms / Math.max(little.ms, 1);
      if (big.ms > worst.largeMs) Object.assign(worst, { largeMs: big.ms, largeAt: where });
      if (ratio > worst.ratio && big.ms > 50) Object.assign(worst, { ratio, ratioAt: where });
      if (big.healthMs > worst.healthMs) Object.assign(worst, { healthMs: big.healthMs, healthAt: where });
      if (big.ms > LARGE_LIMIT_MS) failures.push(`${where}: 256 KiB took ${big.ms.toFixed(0)} ms`);
      if (big.ms > RATIO_LIMIT * little.ms + RATIO_SLACK_MS) {
        failures.push(`${where}: 16 KiB ${little.ms.toFixed(0)} ms → 256 KiB ${big.ms.toFixed(0)} ms`);
      }
      if (big.healthMs > HEALTH_LIMIT_MS) failures.push(`${where}: health took ${big.healthMs.toFixed(0)} ms`);
    }
  }
  figures('linear-text', {
    shapes: SHAPES.length,
    routes: 14,
    largeMaxMs: Math.round(worst.largeMs),
    largeMaxAt: JSON.stringify(worst.largeAt),
    ratioMax: worst.ratio.toFixed(1),
    ratioMaxAt: JSON.stringify(worst.ratioAt),
    healthMaxMs: Math.round(worst.healthMs),
    healthMaxAt: JSON.stringify(worst.healthAt),
  });
  assert.deepEqual(failures, [], 'some text route is not linear');
});
