import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';
import { standsWithoutModel, sureWithoutModel } from '../../../src/core/classify/decision.ts';
import { snippets } from './snippets.ts';

const goHandler = snippets.find((s) => s.name === 'go http handler')!.text;

/** The id the next worker thread of this process will get (ids are handed out in sequence). */
async function nextThreadId(): Promise<number> {
  const probe = new Worker('', { eval: true });
  const id = probe.threadId;
  await probe.terminate();
  return id + 1;
}

/** OS threads of this process, where /proc tells (a terminated worker really gives its thread back). */
function osThreads(): number | undefined {
  return existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : undefined;
}

function fake(behaviour: string): { worker: URL; modelDir: string } {
  return { worker: new URL('./fixtures/fakeWorker.ts', import.meta.url), modelDir: behaviour };
}

test('classifies the snippet fixture with at least 90% accuracy', async (t) => {
  const classifier = new LanguageClassifier({ timeoutMs: 30_000, sureWithoutModel: Infinity });
  try {
    const languages = new Set(snippets.flatMap((s) => s.expected));
    assert.ok(snippets.length >= 40 && languages.size >= 15, 'the fixture is big and varied enough');
    const misses: string[] = [];
    const bySource = { hint: 0, model: 0, tokens: 0, fallback: 0, default: 0 };
    const started = performance.now();
    for (const snippet of snippets) {
      const guess = await classifier.classify(snippet.text);
      bySource[guess.source]++;
      assert.ok(guess.confidence >= 0 && guess.confidence <= 1, `${snippet.name}: confidence in 0..1`);
      if (!snippet.expected.includes(guess.specific)) {
        misses.push(`${snippet.name}: ${guess.specific} (${guess.source} ${guess.confidence.toFixed(2)})`);
      }
    }
    const elapsed = performance.now() - started;
    const right = snippets.length - misses.length;
    const accuracy = right / snippets.length;
    t.diagnostic(`accuracy ${right}/${snippets.length} = ${(accuracy * 100).toFixed(1)}% over ${languages.size} languages`);
    t.diagnostic(`decided by model ${bySource.model}, fallback ${bySource.fallback}; ${(elapsed / snippets.length).toFixed(1)} ms per call including the first load`);
    for (const miss of misses) t.diagnostic(`miss: ${miss}`);
    assert.ok(accuracy >= 0.9, `accuracy ${accuracy} below 0.9: ${misses.join('; ')}`);
    assert.ok(bySource.model >= 30 && bySource.fallback >= 5, 'both the model and the fallback took part');
  } finally {
    await classifier.unload();
  }
});

test('decides the tricky cases the way a user expects', async () => {
  const classifier = new LanguageClassifier({ timeoutMs: 30_000, sureWithoutModel: Infinity });
  try {
    const cases: [string, string][] = [
      // Type annotations make TypeScript, CommonJS without them JavaScript (code with neither fits both, and
      // TypeScript's own files hold much of it: docs/languages.md).
      ['function add(a: number, b: number): number {\n  return a + b;\n}\nexport const total: number = add(1, 2);\n', 'ts'],
      ['const items = require("./items");\nconst doubled = items.map((x) => x * 2);\nconsole.log(doubled.join(", "));\n', 'js'],
      // C with stdio stays C; iostream and std:: make C++.
      ['#include <stdio.h>\n\nint main(void) {\n    printf("%d\\n", 42);\n    return 0;\n}\n', 'c'],
      ['#include <iostream>\n\nint main() {\n    std::cout << "hi" << std::endl;\n    return 0;\n}\n', 'cpp'],
      // Markup: known HTML tags are HTML, anything else XML.
      ['<div class="card"><p>Hi</p></div>', 'html'],
      ['<?xml version="1.0"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example</groupId>\n</project>\n', 'xml'],
      // Sentences are text, but Markdown with its markers stays Markdown.
      ['Buy milk, eggs and bread on the way home, and call the plumber about the leak.', 'txt'],
      ['# Notes\n\n- **Buy** milk\n- Call the [plumber](https://example.com)\n\n```js\nconsole.log(1)\n```\n', 'md'],
      // One-liners are too short for the model.
      ['npm install --save-dev typescript', 'sh'],
      ['SELECT id FROM t;', 'sql'],
      ['{"ok": true}', 'json'],
      // Saved as C and as Ruby before the token model (issue 31).
      ['def fibonacci(n):\n    if n <= 1:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n\nprint(fibonacci(10))\n', 'py'],
      ['def first():\n    return 1\n', 'py'],
    ];
    for (const [text, expected] of cases) {
      const guess = await classifier.classify(text);
      assert.equal(guess.specific, expected, `${JSON.stringify(text.slice(0, 40))} → ${guess.specific} (${guess.source})`);
    }
    assert.deepEqual(await classifier.classify('   \n\t '), { specific: 'txt', confidence: 0, source: 'default' });
    const long = await classifier.classify(goHandler);
    assert.equal(long.source, 'model');
    assert.ok(long.confidence > 0.5);
  } finally {
    await classifier.unload();
  }
});

test('the lines that keep guesslang out are the text\'s own: blank lines around it do not count, blank lines inside do', () => {
  const unsure = { specific: 'rb', confidence: 0.3, source: 'tokens' } as const;
  assert.equal(standsWithoutModel(unsure, 'a = 1\nb = 2\nc = 3\n'), true, 'three lines');
  assert.equal(standsWithoutModel(unsure, '\n\n  a = 1\nb = 2\nc = 3\n\n\n'), true, 'three lines between blank ones');
  assert.equal(standsWithoutModel(unsure, 'a = 1\nb = 2\n\nc = 3\n'), false, 'four lines, one of them blank');
  assert.equal(standsWithoutModel(unsure, 'a = 1\r\nb = 2\r\nc = 3\r\nd = 4'), false, 'four lines ended by CRLF');
  assert.equal(standsWithoutModel({ ...unsure, confidence: sureWithoutModel }, 'a = 1\nb = 2\nc = 3\nd = 4\n'), true, 'sure');
});

test('load starts one worker thread and unload really stops it', async () => {
  const classifier = new LanguageClassifier({ sureWithoutModel: Infinity });
  try {
    assert.equal(classifier.loaded, false);
    assert.equal(classifier.threadId, undefined);
    const before = osThreads();
    const expectedId = await nextThreadId();
    await Promise.all([classifier.load(), classifier.load()]);
    assert.equal(classifier.loaded, true);
    assert.equal(classifier.threadId, expectedId, 'two concurrent loads shared one start');
    if (before !== undefined) assert.equal(osThreads(), before + 1);
    await classifier.load();
    assert.equal(classifier.threadId, expectedId, 'load is idempotent');

    await classifier.unload();
    assert.equal(classifier.loaded, false);
    assert.equal(classifier.threadId, undefined);
    if (before !== undefined) assert.equal(osThreads(), before, 'the worker thread is gone');

    // Unloaded on purpose: the model stays out, classification still answers.
    const guess = await classifier.classify(goHandler);
    assert.equal(guess.source, 'tokens');
    assert.equal(guess.specific, 'go');
    assert.equal(classifier.loaded, false, 'classify does not reload what was unloaded');

    await classifier.load();
    assert.equal(classifier.loaded, true);
    assert.ok(classifier.threadId! > expectedId, 'a new worker after reload');
    assert.equal((await classifier.classify(goHandler)).source, 'model');
  } finally {
    await classifier.unload();
  }
});

test('the first classify loads the model lazily, and concurrent calls share one start', async () => {
  const classifier = new LanguageClassifier({ timeoutMs: 30_000, sureWithoutModel: Infinity });
  try {
    const expectedId = await nextThreadId();
    const texts = snippets.filter((s) => s.text.length > 200).slice(0, 6);
    const guesses = await Promise.all(texts.map((s) => classifier.classify(s.text)));
    assert.equal(classifier.loaded, true);
    assert.equal(classifier.threadId, expectedId, 'exactly one worker was started');
    for (const [i, guess] of guesses.entries()) {
      assert.equal(guess.source, 'model', texts[i]!.name);
      assert.ok(texts[i]!.expected.includes(guess.specific), `${texts[i]!.name}: ${guess.specific}`);
    }
  } finally {
    await classifier.unload();
  }
});

test('a classification slower than the time limit falls back without stopping the worker', async () => {
  const classifier = new LanguageClassifier({ timeoutMs: 1, sureWithoutModel: Infinity });
  try {
    await classifier.load();
    // About 60k characters: the model needs far more than 1 ms for it.
    const big = goHandler.repeat(150);
    const guess = await classifier.classify(big);
    assert.equal(guess.source, 'tokens');
    assert.equal(guess.specific, 'go');
    assert.equal(classifier.loaded, true);
  } finally {
    await classifier.unload();
  }

  const silent = new LanguageClassifier({ timeoutMs: 150, files: fake('silent'), sureWithoutModel: Infinity });
  try {
    const started = performance.now();
    const guess = await silent.classify(goHandler);
    assert.equal(guess.source, 'tokens');
    assert.equal(guess.specific, 'go');
    assert.ok(performance.now() - started < 5_000, 'the time limit bounded the wait');
    assert.equal(silent.loaded, true);
  } finally {
    await silent.unload();
  }
});

test('a crashed worker falls back, reloads on a later call, and gives up after repeated crashes', async () => {
  const classifier = new LanguageClassifier({ files: fake('crash-on-request'), sureWithoutModel: Infinity });
  try {
    const first = await nextThreadId();
    const guess = await classifier.classify(goHandler);
    assert.equal(guess.source, 'tokens');
    assert.equal(guess.specific, 'go');
    assert.equal(classifier.loaded, false);
    // Two more calls: each starts a fresh worker, which crashes again.
    await classifier.classify(goHandler);
    await classifier.classify(goHandler);
    assert.equal(await nextThreadId(), first + 4, 'three workers were started, one per call');
    // After three crashes lazy loading stops: no new worker.
    const afterCrashes = await nextThreadId();
    assert.equal((await classifier.classify(goHandler)).source, 'tokens');
    assert.equal(await nextThreadId(), afterCrashes + 1);
    // An explicit load tries again.
    await classifier.load();
    assert.equal(classifier.loaded, true);
  } finally {
    await classifier.unload();
  }
});

test('guesslang is asked only where the token model is unsure, and never of one to three lines', async () => {
  // This worker crashes on any request, so whether it was asked shows in `loaded`.
  const classifier = new LanguageClassifier({ files: fake('crash-on-request') });
  try {
    await classifier.load();
    const sure = await classifier.classify(goHandler);
    assert.deepEqual([sure.specific, sure.source], ['go', 'tokens']);
    assert.ok(sure.confidence >= sureWithoutModel);
    assert.equal(classifier.loaded, true, 'the worker was not asked');
    // One to three lines are never sent: guesslang is right on a quarter of them (docs/languages.md).
    const short = await classifier.classify('first = second\nthird = fourth\n');
    assert.ok(short.confidence < sureWithoutModel);
    assert.equal(classifier.loaded, true, 'the worker was not asked of two lines');
    // Plain assignments fit many languages (test/reliability/classifyPriority.test.ts imports such snippets).
    const unsure = await classifier.classify('first = second\nthird = fourth\nfifth = sixth\nseventh = eighth\n');
    assert.ok(unsure.confidence < sureWithoutModel);
    assert.equal(classifier.loaded, false, 'the worker was asked');
  } finally {
    await classifier.unload();
  }
});

test('a model that fails or hangs while loading rejects load and leaves the fallback working', async () => {
  const broken = new LanguageClassifier({ files: fake('fail-to-load') });
  try {
    await assert.rejects(broken.load(), /model\.json is corrupt/);
    assert.equal(broken.loaded, false);
    assert.equal((await broken.classify(goHandler)).source, 'tokens');
  } finally {
    await broken.unload();
  }

  const stuck = new LanguageClassifier({ loadTimeoutMs: 200, files: fake('never-ready') });
  try {
    await assert.rejects(stuck.load(), /did not load within 200 ms/);
    assert.equal(stuck.loaded, false);
    assert.equal(stuck.threadId, undefined);
  } finally {
    await stuck.unload();
  }
});

test('unloading during a load settles every waiting call with the fallback', async () => {
  const classifier = new LanguageClassifier({ timeoutMs: 30_000 });
  const loadRejected = assert.rejects(classifier.load(), /unloaded/);
  const waiting = classifier.classify(goHandler);
  await classifier.unload();
  await loadRejected;
  const guess = await waiting;
  assert.equal(guess.source, 'tokens');
  assert.equal(guess.specific, 'go');
  assert.equal(classifier.loaded, false);
});

test('an interactive snippet goes to the worker ahead of an import\'s queue, and the queue never times out by waiting', async () => {
  // Each snippet holds the worker 20 ms; thirty bulk ones are 600 ms of work, three times the limit.
  const classifier = new LanguageClassifier({ timeoutMs: 200, files: fake('busy-20ms'), sureWithoutModel: Infinity });
  try {
    await classifier.load();
    const settled: string[] = [];
    // Four lines each: fewer are never sent to the worker.
    const bulk = Array.from({ length: 30 }, (_, i) => classifier.classify(`bulk snippet number ${i} = ${i}\n`.repeat(4), { priority: 'bulk' }).then((guess) => (settled.push(`bulk ${i}`), guess)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const interactive = await classifier.classify('interactive snippet = create()\n'.repeat(4)).then((guess) => (settled.push('interactive'), guess));
    const waited = performance.now() - started;
    const guesses = await Promise.all(bulk);
    const position = settled.indexOf('interactive');
    assert.equal(interactive.source, 'model');
    assert.ok(position <= 5, `the interactive snippet was answered after ${position} bulk ones (${waited.toFixed(0)} ms)`);
    assert.deepEqual(
      guesses.map((guess) => guess.source),
      guesses.map(() => 'model'),
      'no bulk snippet fell back for having waited its turn',
    );
  } finally {
    await classifier.unload();
  }
});
