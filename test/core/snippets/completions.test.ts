/**
 * Completion candidates from a real store: what matches (name, tag, prefix), the language filter
 * (the document's language, its family, language-neutral snippets; everything in plain text), the
 * order, what comes with each candidate, and the in-memory tables kept in step with writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import { MAX_CANDIDATE_TEXT } from '../../../src/core/snippets/snippetService.ts';
import { TEST_WRITE } from '../../support/authors.ts';

async function save(core: Satchel, text: string, name: string, ext: string, tags: string[] = []): Promise<string> {
  return (await core.assets.writes.create(codeSeed(text, name, { ext, tags }), TEST_WRITE)).id;
}

const names = (core: Satchel, query: string, language?: string): string[] => core.snippets.completions({ query, language }).candidates.map((c) => c.name);

test('name words, tags and prefixes match what is typed; the document language, its family and neutral snippets are offered', async () => {
  await withCore(async (core) => {
    const fetchTs = await save(core, 'const res = await fetch(url);', 'Fetch with retry', 'ts', ['http']);
    await save(core, 'fetch(url).then((r) => r.json())', 'Fetch JSON in JSX', 'jsx');
    await save(core, 'requests.get(url)', 'Fetch in Python', 'py', ['http']);
    await save(core, 'Fetched on demand.', 'Fetch note', 'txt');
    await save(core, 'type Props = {}', 'Props for a TSX component', 'tsx');
    core.snippets.setInfo(fetchTs, { prefixes: ['fwr'] }, TEST_WRITE);

    assert.deepEqual(names(core, 'fetch', 'typescript'), ['Fetch with retry', 'Fetch note'], 'ts, then txt (neutral); not py or jsx');
    assert.deepEqual(names(core, 'fetch', 'javascriptreact'), ['Fetch JSON in JSX', 'Fetch note'], 'ts is not of the jsx family');
    assert.deepEqual(names(core, 'props', 'typescript'), ['Props for a TSX component'], 'tsx snippets in a ts document (one family)');
    assert.deepEqual(names(core, 'htt', 'python'), ['Fetch in Python'], 'a tag matches');
    assert.deepEqual(names(core, 'fw', 'typescript'), ['Fetch with retry'], 'a prefix matches');
    assert.deepEqual(names(core, 'fetch', 'plaintext').sort(), ['Fetch JSON in JSX', 'Fetch in Python', 'Fetch note', 'Fetch with retry'], 'a plain-text document offers every language');
    assert.deepEqual(names(core, 'fetch', 'no-such-language'), ['Fetch note'], 'an unknown language: neutral snippets only');
    assert.deepEqual(names(core, 'fetch'), ['Fetch note']);
    assert.deepEqual(names(core, 'retry', 'ts'), ['Fetch with retry'], 'a language as Satchel names it works too');
  });
});

test('order: a whole word, then a word start, then inside a word; within each the document language first, then the shorter label; the limit holds', async () => {
  await withCore(async (core) => {
    await save(core, 'a', 'log value to console', 'ts');
    await save(core, 'b', 'logger setup', 'ts');
    await save(core, 'c', 'log', 'txt');
    await save(core, 'd', 'log', 'ts');
    await save(core, 'e', 'blog post outline', 'ts');
    const found = core.snippets.completions({ query: 'log', language: 'typescript' }).candidates;
    assert.deepEqual(found.map((c) => `${c.name} (${c.language})`), ['log (ts)', 'log value to console (ts)', 'log (txt)', 'logger setup (ts)', 'blog post outline (ts)']);
    assert.equal(core.snippets.completions({ query: 'log', language: 'typescript', limit: 2 }).candidates.length, 2);
    assert.deepEqual(names(core, 'lo', 'typescript'), ['log', 'logger setup', 'log value to console', 'log'], 'two characters: word starts only (not "blog"), none a whole word');
    assert.deepEqual(names(core, 'l', 'typescript'), ['log', 'log', 'logger setup', 'log value to console'], 'one character: the newest with a word starting with it');
  });
});

test('each candidate carries its text (bounded), facts and the word that matched; info gives tags and description; empty query lists the newest', async () => {
  await withCore(async (core) => {
    const small = await save(core, 'echo "$HOME"', 'Home directory', 'sh', ['shell']);
    const large = await save(core, 'x'.repeat(MAX_CANDIDATE_TEXT + 1), 'Huge fixture', 'sh');
    core.snippets.setInfo(small, { syntax: true, prefixes: ['home'] }, TEST_WRITE);
    const [first, second] = core.snippets.completions({ query: '', language: 'shellscript' }).candidates;
    assert.equal(first!.id, large, 'newest first');
    assert.equal(first!.text, undefined, 'a text over the bound is left out (inserted by id)');
    assert.ok(first!.length > MAX_CANDIDATE_TEXT);
    assert.equal(second!.id, small);
    assert.equal(second!.text, 'echo "$HOME"');
    assert.equal(second!.syntax, true);
    assert.deepEqual(second!.prefixes, ['home']);
    assert.equal(second!.match, undefined, 'nothing was typed');
    assert.ok(second!.updated);
    assert.deepEqual([...core.snippets.info(small).tags].sort(), ['home', 'shell'], 'a prefix is also a tag');
    assert.equal(core.snippets.completions({ query: 'she', language: 'shellscript' }).candidates[0]!.match, 'shell', 'the tag that matched');
    assert.equal(core.snippets.completions({ query: 'direct', language: 'shellscript' }).candidates[0]!.match, 'directory', 'the name word that matched');
    // A description comes with the candidate (import writes one; so does the history area's edit).
    const imported = await core.imports.import([{ name: 'shellscript.json', text: () => JSON.stringify({ Greet: { prefix: 'greet', body: 'echo hi', description: 'Say hi' } }) }]);
    assert.equal(imported.imported, 1);
    const greet = core.snippets.completions({ query: 'greet', language: 'shellscript' }).candidates[0]!;
    assert.deepEqual(greet.prefixes, ['greet']);
    assert.deepEqual(core.snippets.info(greet.id), { asset: greet.id, syntax: false, prefixes: ['greet'], tags: ['greet'], description: 'Say hi' });
  }, { importWorker: false });
});

test('the language table and the label index follow renames, tags, reclassification, deletes and suggestions', async () => {
  await withCore(async (core) => {
    const id = await save(core, 'SELECT 1', 'Health query', 'sql');
    assert.deepEqual(names(core, 'health', 'sql'), ['Health query']);
    core.assets.writes.reclassify(id, 'py', TEST_WRITE);
    assert.deepEqual(names(core, 'health', 'sql'), [], 'reclassified: no longer SQL');
    assert.deepEqual(names(core, 'health', 'python'), ['Health query']);
    const asset = core.assets.get(id, { transferables: false });
    core.assets.writes.update({ ...asset, name: 'Liveness probe' }, TEST_WRITE);
    assert.deepEqual(names(core, 'health', 'python'), []);
    assert.deepEqual(names(core, 'live', 'python'), ['Liveness probe']);
    core.assets.writes.createTag({ text: 'kubernetes', asset: id }, TEST_WRITE);
    assert.deepEqual(names(core, 'kube', 'python'), ['Liveness probe']);
    const suggested = (await core.assets.writes.create(codeSeed('print(1)', 'Liveness suggestion', { ext: 'py' }), { ...TEST_WRITE, suggested: true })).id;
    assert.ok(core.assets.exists(suggested));
    assert.deepEqual(names(core, 'live', 'python'), ['Liveness probe'], 'a suggestion is not offered');
    core.assets.writes.delete(id, TEST_WRITE);
    assert.deepEqual(names(core, 'live', 'python'), []);
    assert.deepEqual(core.snippets.completions({ query: '', language: 'python' }).candidates, []);
  });
});

test('queries that cannot be a name or prefix answer nothing; facts are refused for unknown assets and over the limits', async () => {
  await withCore(async (core) => {
    const id = await save(core, 'x', 'Thing', 'ts');
    assert.deepEqual(core.snippets.completions({ query: 'two words', language: 'ts' }).candidates, []);
    assert.deepEqual(core.snippets.completions({ query: 't'.repeat(500), language: 'ts' }).candidates, []);
    assert.throws(() => core.snippets.info('missing'), { code: 'not_found' });
    assert.throws(() => core.snippets.setInfo('missing', { syntax: true }, TEST_WRITE), { code: 'not_found' });
    assert.throws(() => core.snippets.setInfo(id, { prefixes: ['p'.repeat(300)] }, TEST_WRITE), { code: 'too_large' });
    assert.throws(() => core.snippets.setInfo(id, { prefixes: Array.from({ length: 200 }, (_, i) => `p${i}`) }, TEST_WRITE), { code: 'too_large' });
    assert.deepEqual(core.snippets.info(id), { asset: id, syntax: false, prefixes: [], tags: [] }, 'nothing was written by the refused changes');
    const set = core.snippets.setInfo(id, { prefixes: [' a ', 'A', 'b', ''] }, TEST_WRITE);
    assert.deepEqual(set.prefixes, ['a', 'b'], 'trimmed, one per text ignoring case');
    assert.deepEqual(core.snippets.setInfo(id, { syntax: true }, TEST_WRITE), { asset: id, syntax: true, prefixes: ['a', 'b'], tags: ['a', 'b'] }, 'a change keeps what it does not name');
  });
});

test('the language table warmed at start takes in changes made while it reads, and an import larger than its change queue', async () => {
  await withCore(async (core) => {
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await save(core, `x${i}`, `Widget ${i}`, 'ts'));
    const warming = core.snippets.warm();
    core.assets.writes.reclassify(ids[0]!, 'go', TEST_WRITE);
    await warming;
    assert.deepEqual(names(core, 'widget', 'go'), ['Widget 0'], 'a change made during the warm-up is read');
    assert.equal(names(core, 'widget', 'typescript').length, 19);
    const many = Object.fromEntries(Array.from({ length: 2_500 }, (_, i) => [`Gadget ${i}`, { prefix: `gadget${i}`, body: `const gadget${i} = ${i};` }]));
    const summary = await core.imports.import([{ name: 'typescript.json', text: () => JSON.stringify(many) }]);
    assert.equal(summary.imported, 2_500);
    assert.deepEqual(names(core, 'gadget2499', 'typescript'), ['Gadget 2499'], 'past the change queue, the table is read again');
    assert.equal(names(core, 'widget', 'go').length, 1);
  }, { importWorker: false });
});
