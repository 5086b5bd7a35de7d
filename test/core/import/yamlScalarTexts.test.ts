/**
 * Fields that are strings in the record keep the text written in foreign YAML (massCode's vault,
 * a hand-edited Satchel vault): `name: 12345678901234567890` is not 12345678901234567000, `1e3` not
 * 1000, `0x10` not 16, `true` not a boolean, while numbers (massCode's tag ids and times) stay numbers.
 * massCode writes with js-yaml's dump, which quotes such strings; an unquoted one is a hand edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { tempDir } from '../../support/helpers.ts';
import { massCodeVaultParts } from '../../../src/core/import/massCodeVault.ts';
import { readFrontMatter } from '../../../src/core/sync/frontMatter.ts';
import { parseYamlTexts } from '../../../src/core/sync/yamlReader.ts';
import { parseAsset } from '../../../src/core/sync/vaultFormat.ts';
import { CONVERSATION_FILE, parseConversation } from '../../../src/core/sync/vaultConversations.ts';

/** Strings the core schema would read as something else, as a person types them. */
const AMBIGUOUS = ['12345678901234567890', '1e3', '0x10', '0o17', '+12', '.inf', 'true', 'False', '007'];

test('each scalar keeps its text beside its value; null stays null', () => {
  const source = `${AMBIGUOUS.map((text, i) => `k${i}: ${text}`).join('\n')}\nnone: null\ntilde: ~\nempty:\nlist: [1e3, "quoted", x]\nnested: { n: 0x10 }\n`;
  const { value, texts } = parseYamlTexts(source);
  assert.ok(texts !== null && typeof texts === 'object' && !Array.isArray(texts));
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value));
  AMBIGUOUS.forEach((text, i) => assert.equal(texts[`k${i}`], text, text));
  // The values are unchanged: what numeric and boolean fields read.
  assert.equal(value.k0, 12345678901234567890);
  assert.equal(value.k1, 1000);
  assert.equal(value.k6, true);
  assert.deepEqual([texts.none, texts.tilde, texts.empty], [null, null, null]);
  assert.deepEqual(texts.list, ['1e3', 'quoted', 'x']);
  assert.deepEqual(texts.nested, { n: '0x10' });
  // A tag the failsafe reading refuses: the texts are spelled from the values instead of failing.
  assert.deepEqual(parseYamlTexts('n: !!int 5\nname: 1e3\n').texts, { n: '5', name: '1000' });
});

test("massCode's own dump quotes every one of these strings, so its files read back unchanged", () => {
  for (const text of AMBIGUOUS) {
    const dumped = yaml.dump({ name: text }, { lineWidth: -1, noRefs: true, sortKeys: false });
    assert.notEqual(dumped.trim(), `name: ${text}`, `js-yaml leaves ${text} unquoted`);
    const front = readFrontMatter(`---\n${dumped}---\nbody`);
    assert.equal(front?.data.name, text);
    assert.equal(front?.texts.name, text);
  }
});

test('a massCode vault with hand-edited names and descriptions imports them as written; tag ids stay numbers', () => {
  const root = tempDir('satchel-masscode-scalars-');
  try {
    mkdirSync(join(root, '.masscode'), { recursive: true });
    mkdirSync(join(root, 'Folder'));
    writeFileSync(join(root, '.masscode', 'state.json'), JSON.stringify({ tags: [{ id: 1, name: 'alpha' }, { id: 16, name: 'sixteen' }] }));
    const fragment = '## Fragment: Fragment 1\n```javascript\nconst x = 1;\n```\n';
    AMBIGUOUS.forEach((text, i) => {
      // As a person edits massCode's file: the quotes its dump wrote are gone.
      const front = `contents:\n  - id: c${i}\n    label: Fragment 1\n    language: javascript\ncreatedAt: 1711000000000\ndescription: ${text}\nfolderId: null\nid: s${i}\nisDeleted: 0\nisFavorites: 0\nname: ${text}\ntags:\n  - 1\n  - 0x10\nupdatedAt: 1711000000001\n`;
      writeFileSync(join(root, 'Folder', `snippet-${i}.md`), `---\n${front}---\n\n${fragment}`);
    });
    writeFileSync(join(root, 'Folder', 'snippet-null.md'), `---\ndescription: null\nname: ~\ntags: []\n---\n\n${fragment}`);
    const parsed = massCodeVaultParts(root).map((part) => part.read());
    assert.deepEqual(parsed.flatMap((file) => file.failures), []);
    const snippets = parsed.flatMap((file) => file.snippets);
    const byName = new Map(snippets.map((snippet) => [snippet.name, snippet]));
    for (const text of AMBIGUOUS) {
      const snippet = byName.get(text);
      assert.ok(snippet, `${text} is imported under its name as written (got ${[...byName.keys()].join(', ')})`);
      assert.equal(snippet.description, text);
      assert.deepEqual([...snippet.tags], ['Folder', 'alpha', 'sixteen'], 'tag ids are numbers, 0x10 included');
    }
    // null is no value: the file name stands in for the name, and there is no description.
    assert.equal(byName.get('snippet-null')?.description, undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a hand-edited Satchel vault record keeps its strings as written; times and flags keep their types", () => {
  const meta = [
    '---',
    'id: x',
    'name: 12345678901234567890',
    'language: 1e3',
    'tags: [0x10, true, "quoted"]',
    'websites:',
    '  - url: 0o17',
    '    name: 007',
    'prefixes: [+12]',
    'created: 1711000000000',
    'updated: "2024-01-02T00:00:00.000Z"',
    'favorited: true',
    '---',
    '',
  ].join('\n');
  const record = parseAsset('x', [
    { name: 'snippet.md', data: Buffer.from(meta) },
    { name: 'code.txt', data: Buffer.from('text') },
  ]);
  assert.equal(record.name, '12345678901234567890');
  assert.equal(record.language, '1e3');
  assert.deepEqual(record.tags, ['0x10', 'true', 'quoted']);
  assert.deepEqual(record.websites, [{ url: '0o17', name: '007' }]);
  assert.deepEqual(record.prefixes, ['+12']);
  assert.equal(record.created, '2024-03-21T05:46:40.000Z', 'a number is milliseconds since the epoch');
  assert.equal(record.updated, '2024-01-02T00:00:00.000Z');
  assert.equal(record.favorited, true);
});

test('a hand-edited vault conversation keeps its name, type, roles and ids as written', () => {
  const head = '---\nname: 1e3\ntype: 0x10\ncreated: 1711000000000\nassets: [12345678901234567890]\n---\n';
  const message = '---\nid: 007\nrole: True\ncreated: 1711000000001\n---\nhello';
  const conversation = parseConversation('c', [
    { name: CONVERSATION_FILE, data: Buffer.from(head) },
    { name: 'message-a.md', data: Buffer.from(message) },
  ]);
  assert.equal(conversation.name, '1e3');
  assert.equal(conversation.type, '0x10');
  assert.deepEqual(conversation.assets, ['12345678901234567890']);
  assert.equal(conversation.created, '2024-03-21T05:46:40.000Z');
  assert.deepEqual(conversation.messages.map((m) => [m.id, m.role, m.text]), [['007', 'True', 'hello']]);
});
