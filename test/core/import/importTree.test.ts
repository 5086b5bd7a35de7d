/**
 * The import's walk is one function over any file system (node's disk for the CLI, VS Code's for
 * a remote window's workspace); these run it over an in-memory tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findImportFiles, type EntryKind, type ImportTree } from '../../../src/core/import/importTree.ts';
import { InvalidInputError } from '../../../src/core/errors.ts';

type Node = { readonly [name: string]: Node } | 'file' | 'link';

function memoryTree(root: Node): ImportTree<string> {
  const at = (path: string): Node | undefined => path.split('/').filter(Boolean).reduce<Node | undefined>((node, name) => (node && typeof node === 'object' ? node[name] : undefined), root);
  const kindOf = (node: Node): EntryKind => (node === 'file' ? 'file' : node === 'link' ? 'other' : 'directory');
  return {
    kind: async (path) => {
      const node = at(path);
      if (node === undefined) throw new Error('no such file');
      return kindOf(node);
    },
    entries: async (path) => {
      const node = at(path);
      if (!node || typeof node !== 'object') throw new Error('not a directory');
      return Object.entries(node).map(([name, child]) => ({ name, kind: kindOf(child), location: `${path}/${name}` }));
    },
    label: (path) => `mem:${path}`,
  };
}

const tree = memoryTree({
  snippets: {
    'z.code-snippets': 'file',
    'a.json': 'file',
    'notes.md': 'file',
    '.hidden': { 'secret.json': 'file' },
    node_modules: { 'pkg.json': 'file' },
    linked: 'link',
    'linked.json': 'link',
    nested: { 'B.JSON': 'file', deeper: { 'c.code-snippets': 'file' } },
    templates: { 'Logging.xml': 'file' },
  },
});

test('a folder gives its snippet files in name order, leaving out hidden folders, node_modules and links', async () => {
  // `.xml`: a JetBrains templates folder holds one file a group.
  assert.deepEqual(await findImportFiles('/snippets', tree), [
    '/snippets/a.json',
    '/snippets/nested/B.JSON',
    '/snippets/nested/deeper/c.code-snippets',
    '/snippets/templates/Logging.xml',
    '/snippets/z.code-snippets',
  ]);
});

test('a file is read whatever its name; a missing start is a clear input error naming it', async () => {
  assert.deepEqual(await findImportFiles('/snippets/notes.md', tree), ['/snippets/notes.md']);
  await assert.rejects(findImportFiles('/nowhere', tree), (error: Error) => error instanceof InvalidInputError && error.message === 'Cannot read mem:/nowhere: no such file');
});
