import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import {
  codeBlocks,
  detail,
  groundingPrompt,
  lastCodeBlock,
  preview,
  proseOf,
  resultsMarkdown,
  snippetMarkdown,
  summarize,
} from '../../../src/extension/agents/snippetText.ts';
import { fenced } from '../../../src/core/markdown.ts';

function asset(id: string, name: string, code: string, language = 'ts', tags: string[] = []): Asset {
  return {
    id,
    name,
    updated: { value: '2026-11-23T10:00:00.000Z' },
    original: { id: `${id}-f`, reference: { classification: { specific: language } } },
    formats: { iterable: [{ id: `${id}-f`, classification: { specific: language }, fragment: { string: { raw: code } } }] },
    tags: { iterable: tags.map((text, i) => ({ id: `t${i}`, text })) },
    websites: { iterable: [{ id: 'w', url: 'https://example.com/retry' }] },
    conversations: { iterable: [{ id: 'c1' }] },
  } as unknown as Asset;
}

test('preview keeps the first lines, bounded in lines and characters, and marks the cut', () => {
  const code = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
  assert.equal(preview(code, 3), 'line 0\nline 1\nline 2\n…');
  assert.equal(preview('a\nb\n', 3), 'a\nb', 'a short snippet is not marked as cut');
  const oneLiner = 'x'.repeat(10_000);
  assert.equal(preview(oneLiner, 6, 100), `${'x'.repeat(100)}\n…`);
});

test('summarize and detail read name, language, tags, code, websites and conversations', () => {
  const summary = summarize(asset('a1', 'Retry', 'retry()', 'py', ['http']));
  assert.deepEqual(summary, { id: 'a1', name: 'Retry', language: 'py', tags: ['http'], preview: 'retry()', updated: '2026-11-23T10:00:00.000Z' });
  const full = detail(asset('a1', 'Retry', 'retry()'));
  assert.equal(full.content, 'retry()');
  assert.deepEqual(full.websites, ['https://example.com/retry']);
  assert.deepEqual(full.conversations, ['c1']);
  assert.equal(summarize(asset('a2', '  ', 'x')).name, 'Untitled snippet');
});

test('a fence is longer than any backtick run in the code', () => {
  assert.equal(fenced('a', 'ts'), '```ts\na\n```');
  const tricky = 'const md = "````";';
  const block = fenced(tricky);
  assert.ok(block.startsWith('`````\n') && block.endsWith('\n`````'));
  assert.deepEqual(codeBlocks(block), [{ code: tricky, language: undefined }], 'the code survives a round trip');
});

test('the list answer names each snippet with language and tags, and escapes user text', () => {
  const md = resultsMarkdown('retry*', [summarize(asset('a1', 'Retry [fast]', 'retry()', 'ts', ['http']))]);
  assert.match(md, /^One saved snippet matches \*\*retry\\\*\*\*:/);
  assert.match(md, /1\. \*\*Retry \\\[fast\\\]\*\* — ts · #http/);
  assert.match(md, /```ts\n {3}retry\(\)\n {3}```/);
  assert.equal(resultsMarkdown('nothing', []), 'No saved snippet matches **nothing**.');
  const two = resultsMarkdown('q', [summarize(asset('a', 'A', 'a')), summarize(asset('b', 'B', 'b'))]);
  assert.match(two, /^2 saved snippets match/);
});

test('a snippet in full shows its code and links', () => {
  const md = snippetMarkdown(detail(asset('a1', 'Retry', 'retry()')));
  assert.match(md, /```ts\nretry\(\)\n```/);
  assert.match(md, /Linked: <https:\/\/example.com\/retry>/);
});

test('code blocks: language, tilde fences, longer closing fences, unclosed blocks, prose around them', () => {
  const text = 'Here:\n```python\nprint(1)\n```\nand\n~~~\nplain\n~~~~\nthen\n````js\nlet a = "```";\n';
  assert.deepEqual(codeBlocks(text), [
    { code: 'print(1)', language: 'python' },
    { code: 'plain', language: undefined },
    { code: 'let a = "```";\n', language: 'js' },
  ]);
  assert.equal(proseOf('save as retry\n```ts\ncode\n```\nplease').replace(/\n/g, ' '), 'save as retry please');
});

test('the last code block is taken from the newest text that has one', () => {
  const history = ['```ts\nold()\n```', 'Use this:\n```py\nfirst()\n```\nor\n```py\nsecond()\n```', 'thanks, no code here', '```\n   \n```'];
  assert.deepEqual(lastCodeBlock(history), { code: 'second()', language: 'py' });
  assert.equal(lastCodeBlock(['no code']), undefined);
});

test('the grounding prompt numbers the snippets and stays within its budget', () => {
  const big = detail(asset('a', 'Big', 'y'.repeat(50_000)));
  const small = detail(asset('b', 'Small', 'small()'));
  const prompt = groundingPrompt('how?', [small, big], 4_000);
  assert.match(prompt, /\[1\] Small \(ts\)\n```ts\nsmall\(\)\n```/);
  assert.match(prompt, /\[2\] Big \(ts\)/);
  assert.ok(prompt.length < 4_600, `prompt is ${prompt.length} characters`);
  assert.match(prompt, /Question: how\?$/);
  assert.match(groundingPrompt('q', []), /\(no saved snippet matched\)/);
});

test('text helpers stay linear on long runs of one character', () => {
  const run = '`'.repeat(200_000);
  const started = performance.now();
  fenced(run);
  codeBlocks(`${'```\n'.repeat(20_000)}`);
  proseOf('~'.repeat(200_000));
  preview('\n'.repeat(200_000));
  assert.ok(performance.now() - started < 2_000);
});
