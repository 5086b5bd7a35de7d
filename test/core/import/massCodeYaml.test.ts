/**
 * massCode 5 vault files written the way massCode writes them (js-yaml's dump with massCode's
 * options, its Markdown body), from random strings: each front matter reads back as js-yaml itself
 * reads it, field by field, and the import gives back every name, description, tag and fragment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { tempDir } from '../../support/helpers.ts';
import { readFrontMatter } from '../../../src/core/sync/frontMatter.ts';
import { massCodeVaultParts } from '../../../src/core/import/massCodeVault.ts';

interface Fragment {
  readonly label: string;
  readonly language: string;
  readonly value: string;
}

interface Snippet {
  readonly name: string;
  readonly description: string | null;
  readonly tags: number[];
  readonly fragments: Fragment[];
  readonly createdAt: number;
  readonly isFavorites: number;
}

/** Pieces YAML writers and readers trip on, mixed with any text. */
const tricky = fc.constantFrom('#', '# Title', ' ', '  ', '\n', '\n\n', '\r\n', '\t', ':', ': ', '- ', '"', "'", '|', '>', '---', '...', '&a', '*a', '!', '%', '@', '`', '{', '[', ']', ',', '\u2028', '\u0085', '\u00a0', 'é', '日本', '😀', 'null', 'true', '0x1F', '1e3', '~');
const text = fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: 'binary-ascii', maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join(''));
const code = text.map((value) => `x${value.replace(/\r/g, '')}`);
const label = text.map((value) => value.replace(/\r?\n/g, ' ').trim());
const snippet: fc.Arbitrary<Snippet> = fc.record({
  name: text,
  description: fc.option(text),
  tags: fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
  fragments: fc.array(fc.record({ label, language: fc.constantFrom('javascript', 'python', 'plain_text', 'sql'), value: code }), { minLength: 1, maxLength: 3 }),
  createdAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  isFavorites: fc.constantFrom(0, 1),
});

/** massCode's serializeSnippet: its front matter keys and dump options, its fence, its body. */
function massCodeFile(value: Snippet, index: number): { frontmatter: Record<string, unknown>; text: string } {
  const frontmatter = {
    contents: value.fragments.map((fragment, i) => ({ id: `c${index}-${i}`, label: fragment.label, language: fragment.language })),
    createdAt: value.createdAt,
    description: value.description,
    folderId: null,
    id: `s${index}`,
    isDeleted: 0,
    isFavorites: value.isFavorites,
    name: value.name,
    tags: value.tags,
    updatedAt: value.createdAt + 1,
  };
  const head = yaml.dump(frontmatter, { lineWidth: -1, noRefs: true, sortKeys: false }).trim();
  const body = value.fragments
    .map((fragment) => {
      const fence = '`'.repeat(Math.max(3, ...(fragment.value.match(/`+/g) ?? []).map((run) => run.length + 1)));
      return `## Fragment: ${fragment.label || 'Fragment'}\n${fence}${fragment.language}\n${fragment.value}\n${fence}`;
    })
    .join('\n\n');
  return { frontmatter, text: `---\n${head}\n---\n\n${body}\n` };
}

const TAG_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

test('js-yaml-written massCode front matter reads back as js-yaml reads it, LF and CRLF', () => {
  fc.assert(
    fc.property(snippet, fc.boolean(), (value, crlf) => {
      const file = massCodeFile(value, 0);
      const written = crlf ? file.text.replace(/\n/g, '\r\n') : file.text;
      const front = readFrontMatter(written);
      assert.ok(front);
      const head = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(written)![1]!;
      assert.deepEqual(front.data, yaml.load(head), 'as massCode itself reads it');
      assert.deepEqual(front.data, file.frontmatter, 'and as it was written');
    }),
    { numRuns: 2000 },
  );
});

test('a massCode vault of js-yaml-written snippets imports every name, description, tag and fragment', () => {
  fc.assert(
    fc.property(fc.array(snippet, { minLength: 1, maxLength: 12 }), fc.boolean(), (snippets, crlf) => {
      const root = tempDir('satchel-masscode-yaml-');
      try {
        mkdirSync(join(root, '.masscode'), { recursive: true });
        mkdirSync(join(root, 'Folder'));
        writeFileSync(join(root, '.masscode', 'state.json'), JSON.stringify({ tags: TAG_NAMES.map((name, i) => ({ id: i + 1, name })) }));
        const expected: Array<{ name: string; text: string; description: string | undefined; tags: string[] }> = [];
        snippets.forEach((value, index) => {
          const fileName = `snippet-${String(index).padStart(2, '0')}`;
          const file = massCodeFile(value, index).text;
          writeFileSync(join(root, 'Folder', `${fileName}.md`), crlf ? file.replace(/\n/g, '\r\n') : file);
          const base = value.name !== '' ? value.name : fileName;
          value.fragments.forEach((fragment) => {
            if (fragment.value.trim() === '') return;
            const item = value.fragments.length > 1 ? `${base} › ${fragment.label || 'Fragment'}` : base;
            const description = value.description?.trim();
            const tags = ['Folder', ...value.tags.map((id) => TAG_NAMES[id - 1]!)].filter((tag, i, all) => all.findIndex((t) => t.toLowerCase() === tag.toLowerCase()) === i);
            expected.push({ name: item.trim(), text: fragment.value, description: description ? description : undefined, tags });
          });
        });
        const parts = massCodeVaultParts(root);
        const parsed = parts.map((part) => part.read());
        assert.deepEqual(parsed.flatMap((file) => file.failures), []);
        const got = parsed.flatMap((file) => file.snippets).map((s) => ({ name: s.name, text: s.text, description: s.description, tags: [...s.tags] }));
        assert.deepEqual(got, expected);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
});
