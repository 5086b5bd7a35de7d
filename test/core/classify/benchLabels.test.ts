/**
 * The benchmark's label rule (test/bench/languages/extract.ts): a file whose own shebang or editor
 * modeline names another language than its extension is not a sample of the extension's language.
 * It is decided from the file alone and applied alike to the tuning and the held-out packages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedBlockAround, embeddedBlocks, insideEmbeddedBlock } from '../../bench/languages/embedded.ts';
import { statesOtherLanguage } from '../../bench/languages/extract.ts';
import { commentLines } from '../../bench/languages/comments.ts';
import { usable, usableLines } from '../../bench/languages/windows.ts';

test('a bash completion named `.py` with a shell-script modeline is not a Python sample', () => {
  const completion = ['# btdownloadheadless(1) completion                         -*- shell-script -*-', '', '_btdownload()', '{', '    local cur prev words cword'];
  assert.equal(statesOtherLanguage(completion, 'py'), true);
  assert.equal(statesOtherLanguage(completion, 'sh'), false);
});

test('a file whose shebang or modeline agrees with its extension, or that states nothing, stays', () => {
  assert.equal(statesOtherLanguage(['#!/usr/bin/env python3', 'import sys', 'print(sys.argv)'], 'py'), false);
  assert.equal(statesOtherLanguage(['import sys', 'print(sys.argv)'], 'py'), false);
  assert.equal(statesOtherLanguage(['#!/usr/bin/perl', 'print "hi";'], 'sh'), true);
  // `#!/usr/bin/env node` names the runtime of compiled TypeScript too.
  assert.equal(statesOtherLanguage(['#!/usr/bin/env node', 'const x: number = 1;'], 'ts'), false);
});

// The second label rule (test/bench/languages/embedded.ts): a window whose every line lies inside one
// embedded block of another language is not a sample of its file's extension.
const page = [
  '<!DOCTYPE html>', // 0
  '<html><head>', // 1
  '<style type="text/css">', // 2
  '  body { margin: 0; }', // 3
  '  p { color: red; }', // 4
  '</style>', // 5
  '<script>', // 6
  '  const x = 1;', // 7
  '  console.log(x);', // 8
  '</script>', // 9
  '<script type="text/template">', // 10
  '  <li>{{ name }}</li>', // 11
  '</script>', // 12
  '</head><body><p>Hi</p></body></html>', // 13
];

test('an HTML page: lines wholly inside its style or a JavaScript script are not HTML samples', () => {
  assert.deepEqual(embeddedBlocks(page, 'html'), [{ first: 3, last: 4, language: 'css' }, { first: 7, last: 8, language: 'js' }]);
  assert.equal(insideEmbeddedBlock(page, 'html', 3, 2), true);
  assert.equal(insideEmbeddedBlock(page, 'html', 7, 2), true);
  // A window that takes in a tag, or spans two blocks, is still HTML.
  assert.equal(insideEmbeddedBlock(page, 'html', 2, 3), false);
  assert.equal(insideEmbeddedBlock(page, 'html', 4, 2), false);
  assert.equal(insideEmbeddedBlock(page, 'html', 3, 6), false);
  // A script of a non-JavaScript type is left alone.
  assert.equal(insideEmbeddedBlock(page, 'html', 11, 1), false);
  // Only HTML pages and Markdown files have such blocks.
  assert.equal(insideEmbeddedBlock(page, 'php', 3, 2), false);
});

test('a style or script opened and closed on one line, or unclosed, holds no whole line', () => {
  assert.deepEqual(embeddedBlocks(['<p>', '<style>p{}</style><script src="a.js"></script>', '<p>'], 'html'), []);
  assert.deepEqual(embeddedBlocks(['<SCRIPT type="module">x()', 'y()', 'z()</Script >'], 'html'), [{ first: 1, last: 1, language: 'js' }]);
  assert.deepEqual(embeddedBlocks(['<script>', 'a()', 'b()'], 'html'), []);
  assert.deepEqual(embeddedBlocks(['<styles>', 'a', '</styles>'], 'html'), []);
});

test('a Markdown file: lines inside a fenced code block are not Markdown samples, unless the fence is Markdown', () => {
  const readme = [
    '# Title', // 0
    '', // 1
    '```python', // 2
    'def f():', // 3
    '    return 1', // 4
    '```', // 5
    '- a list item', // 6
    '  ~~~', // 7
    '  make all', // 8
    '  ~~~', // 9
    '````markdown', // 10
    '# inner', // 11
    '````', // 12
    '``` not a fence ` here', // 13
    'text', // 14
    '```sh', // 15
    'ls', // 16
  ];
  assert.deepEqual(embeddedBlocks(readme, 'md'), [
    { first: 3, last: 4, language: 'py' },
    { first: 8, last: 8, language: undefined },
    { first: 16, last: 16, language: 'sh' },
  ]);
  assert.equal(insideEmbeddedBlock(readme, 'md', 3, 2), true);
  assert.equal(insideEmbeddedBlock(readme, 'md', 2, 3), false);
  assert.equal(insideEmbeddedBlock(readme, 'md', 11, 1), false);
  // A closing fence must be at least as long as the opening one.
  assert.deepEqual(embeddedBlocks(['````', 'a', '```', 'b', '````', 'c'], 'md'), [{ first: 1, last: 3, language: undefined }]);
});

test("a block names the language its lines are in, read from a fence's info string as the classifier reads hints", () => {
  const fences = ['```{.rust}', 'fn main() {}', '```', '~~~ yml title="ci"', 'on: push', '~~~', '```diff', '-a', '```', '```Bash', 'ls', '```'];
  assert.deepEqual(
    embeddedBlocks(fences, 'md').map((block) => block.language),
    ['rs', 'yaml', undefined, 'sh'],
  );
  // The window's own block, for the training cut's relabelling (extract.ts, EMBEDDED_RULE=relabel).
  assert.equal(embeddedBlockAround(fences, 'md', 4, 1)?.language, 'yaml');
  assert.equal(embeddedBlockAround(fences, 'md', 3, 2), undefined);
  assert.equal(embeddedBlockAround(page, 'html', 3, 2)?.language, 'css');
});

// The third label rule (test/bench/languages/comments.ts): lines holding no code in their file's
// language count as comment lines, whether or not they start with a comment mark.
const comments = (text: string, language: string): number[] =>
  commentLines(text.split('\n'), language).flatMap((comment, i) => (comment ? [i] : []));

test('a C block comment is comment to its close; code before or after it on a line is code', () => {
  const c = ['/*', ' Copyright (c) 2020', ' Licensed under MIT', '*/', 'int x; /* a', 'b */ int y;', 'char *s = "/* not */";', '// line', 'int z;'].join('\n');
  assert.deepEqual(comments(c, 'c'), [0, 1, 2, 3, 7]);
  // An opener never closed is read as code, not as a comment to the end of the file.
  assert.deepEqual(comments('x = a /b;\nglob = 1; /* never\nint y;', 'c'), []);
  // The same lines are code in a language without such comments.
  assert.deepEqual(comments(c, 'sh'), []);
});

test("a Python docstring's lines are comment, a triple-quoted string given to code is code", () => {
  const py = ['def f():', '    """Return one.', '', '    More words.', '    """', '    x = """', '    SELECT 1', '    """', '    return 1  # one'].join('\n');
  assert.deepEqual(comments(py, 'py'), [1, 3, 4]);
  assert.deepEqual(comments("s = '# not a comment'\n# a comment", 'py'), [1]);
});

test("Perl's POD and data section, Ruby's =begin and __END__ are comment", () => {
  const pl = ['sub f { 1 }', '=head1 NAME', '', 'f - one', '=cut', 'my $x = $#list;', '__END__', 'COMMENT FUNCTION addnode(integer)', 'more data'].join('\n');
  assert.deepEqual(comments(pl, 'pl'), [1, 3, 4, 6, 7, 8]);
  assert.deepEqual(comments(['x = 1', '=begin', 'words', '=end', 'y = 2', '__END__', 'data'].join('\n'), 'rb'), [1, 2, 3, 5, 6]);
});

test('Lua, Haskell (nested), PowerShell and markup block comments', () => {
  assert.deepEqual(comments('--[[\nold code\n]]\nlocal s = [[\nlong string\n]]', 'lua'), [0, 1, 2]);
  assert.deepEqual(comments('{- outer\n{- inner -}\nstill comment -}\nmain = pure ()', 'hs'), [0, 1, 2]);
  // A pragma is Haskell, not a comment.
  assert.deepEqual(comments('{-# LANGUAGE TypeFamilies #-}\n{-# language\n  ViewPatterns #-}\nmodule M where', 'hs'), []);
  assert.deepEqual(comments('<#\n.SYNOPSIS\n#>\nWrite-Host "<# no #>"', 'ps1'), [0, 1, 2]);
  assert.deepEqual(comments('<!-- a\nb -->\n<p>x</p>', 'html'), [0, 1]);
});

test('usable counts the lines a block comment holds with those starting with a mark; the line cut refuses any', () => {
  const licence = ['/*', 'Licensed to the Apache Software Foundation', 'under one or more contributor agreements.', 'See the NOTICE file distributed with', 'this work for additional information.', '*/', 'int x;'];
  assert.equal(usable(licence), true);
  assert.equal(usable(licence, commentLines(licence, 'c')), false);
  const lines = ['Licensed to the Apache Software Foundation (ASF)', 'under one or more agreements'];
  assert.equal(usableLines(lines), true);
  assert.equal(usableLines(lines, [true, true]), false);
});
