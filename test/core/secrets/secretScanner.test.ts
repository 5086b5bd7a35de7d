/**
 * Large texts are scanned on a worker thread: the caller's loop keeps answering while the largest
 * snippet allowed (4 Mi characters) is scanned, and the answer is the detector's. A worker that
 * cannot start leaves the scan to the caller's thread, never without an answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import { detectSecrets } from '../../../src/core/secrets/detector.ts';
import { LIMITS } from '../../../src/core/limits.ts';
import { PLANTED } from './plantedSecrets.ts';

const github = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!;

/** The largest snippet allowed: ordinary lines with credentials through it, one on the last line. */
function largest(): string {
  const line = 'const value = compute(input, options); // ordinary code, and a password = prompt()\n';
  const body = line.repeat(Math.floor((LIMITS.contentChars - 200) / line.length));
  return `${PLANTED.slice(0, 20).map((p) => p.text).join('\n')}\n${body}${github.text}\n`.slice(-LIMITS.contentChars);
}

test('the largest snippet allowed is scanned off the loop, which keeps answering', async () => {
  const scanner = new SecretScanner();
  try {
    const text = largest();
    assert.ok(text.length <= LIMITS.contentChars && text.length > LIMITS.contentChars - 1000);
    let worst = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const findings = await scanner.scan({ code: text }, 'interactive');
    const ms = performance.now() - started;
    clearInterval(ticker);
    assert.ok(scanner.threadStarted, 'a worker thread did the scan');
    assert.ok(findings.some((f) => f.label === 'GitHub token' && text.slice(f.start, f.end) === github.value));
    // The loop's longest pause while 4 MiB were scanned (posting the text to the worker copies it).
    assert.ok(worst < 250, `the loop paused ${worst.toFixed(0)} ms during a ${ms.toFixed(0)} ms scan`);
    assert.deepEqual(findings, await detectSecrets({ code: text }), 'the same answer as on this thread');
  } finally {
    scanner.dispose();
  }
});

test('a small text is scanned on the caller\'s thread; a worker that cannot start falls back to it', async () => {
  const small = new SecretScanner();
  assert.equal((await small.scan({ code: github.text }))[0]?.label, 'GitHub token');
  assert.equal(small.threadStarted, false);
  small.dispose();
  const broken = new SecretScanner({ inThreadChars: 0, worker: new URL('./no-such-worker.ts', import.meta.url) });
  try {
    assert.equal((await broken.scan({ code: github.text }))[0]?.label, 'GitHub token');
    assert.equal((await broken.scan({ code: `x\n${github.text}` }))[0]?.line, 2);
  } finally {
    broken.dispose();
  }
});
