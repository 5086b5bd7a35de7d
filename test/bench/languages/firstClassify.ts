/**
 * The first classification in a fresh process, as a host's first save without a language meets it:
 * its wall time, and the longest the event loop was held meanwhile (a 1 ms timer's longest gap), then
 * a second one with the token model held. Prints one JSON line;
 * run it a few times, each a new process (docs/languages.md, "The first classification"):
 *
 *     node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/languages/firstClassify.ts
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';

const PYTHON = 'def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n\nprint(fibonacci(10))\n';

const classifier = new LanguageClassifier();
await sleep(50);
let longest = 0;
let last = performance.now();
const tick = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 1);
await sleep(20);
longest = 0;
last = performance.now();
const started = performance.now();
const guess = await classifier.classify(PYTHON);
const first = performance.now() - started;
await sleep(20);
const again = performance.now();
await classifier.classify(PYTHON);
const second = performance.now() - again;
clearInterval(tick);
console.log(
  JSON.stringify({
    guess: guess.specific,
    source: guess.source,
    first_ms: Number(first.toFixed(1)),
    second_ms: Number(second.toFixed(2)),
    longest_turn_ms: Number(longest.toFixed(1)),
  }),
);
classifier.dispose();
