import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  languageFromHints,
  languageStatedInText,
  specificFromFence,
  specificFromFile,
  specificFromModeline,
  specificFromShebang,
} from '../../../src/core/classify/hints.ts';
import { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';

test('the caller’s language wins: a VS Code id, a client value, an agent’s name', () => {
  assert.equal(languageFromHints({ language: 'typescriptreact' }, ''), 'tsx');
  assert.equal(languageFromHints({ language: 'py', fileName: 'a.rb' }, ''), 'py');
  assert.equal(languageFromHints({ language: 'Python' }, ''), 'py');
  assert.equal(languageFromHints({ language: 'shellscript' }, ''), 'sh');
  // An untitled editor is plaintext whatever it holds: the file name or the text decides.
  assert.equal(languageFromHints({ language: 'plaintext', fileName: 'x.go' }, ''), 'go');
  assert.equal(languageFromHints({ language: 'plaintext' }, ''), undefined);
  assert.equal(languageFromHints({ language: 'no-such-language' }, ''), undefined);
  assert.equal(languageFromHints(undefined, ''), undefined);
  assert.equal(languageFromHints({}, ''), undefined);
});

test('a file name, a fence’s info string, a snippet file’s scope', () => {
  assert.equal(languageFromHints({ fileName: 'src/fib.py' }, ''), 'py');
  assert.equal(languageFromHints({ fileName: 'Dockerfile' }, ''), 'dockerfile');
  assert.equal(languageFromHints({ fileName: 'Quick sort in place' }, ''), undefined);
  assert.equal(languageFromHints({ fileName: 'notes.txt', fence: 'rust' }, ''), 'rs');
  assert.equal(specificFromFence('python title="fib.py"'), 'py');
  assert.equal(specificFromFence('{.haskell}'), 'hs');
  assert.equal(specificFromFence('language-kotlin'), 'kt');
  assert.equal(specificFromFence(''), undefined);
  assert.equal(languageFromHints({ scope: 'nothing,javascript,typescript' }, ''), 'js');
});

test('a header (.h) is C unless its text has syntax only C++ has', () => {
  const cppHeader = 'namespace tinyxml2 {\nclass XMLNode;\n}\n';
  const cHeader = '#ifndef JANSSON_H\n#define JANSSON_H\ntypedef struct json_t json_t;\nint json_equal(const json_t *a, const json_t *b);\n';
  // The registry answers in a file's own spelling (`h`, `hpp`); languageOf reads it as the language.
  const language = (fileName: string, text: string): string | undefined => {
    const specific = specificFromFile(fileName, text);
    return specific === undefined ? undefined : languageOf(specific)?.specific;
  };
  assert.equal(language('include/tinyxml2.h', cppHeader), 'cpp');
  assert.equal(language('include/jansson.h', cHeader), 'c');
  assert.equal(language('INCLUDE/X.H', 'std::string name;\n'), 'cpp');
  // Other names keep what they name, whatever the text.
  assert.equal(language('a.c', cppHeader), 'c');
  assert.equal(language('a.hpp', cHeader), 'cpp');
  assert.equal(languageFromHints({ fileName: 'xml.h' }, cppHeader), 'cpp');
  // The caller's language still wins over the name.
  assert.equal(languageFromHints({ language: 'c', fileName: 'xml.h' }, cppHeader), 'c');
});

test('a shebang names its interpreter, through env, options and versions', () => {
  assert.equal(specificFromShebang('#!/usr/bin/env python3\nprint(1)\n'), 'py');
  assert.equal(specificFromShebang('#!/usr/bin/python3.12\n'), 'py');
  assert.equal(specificFromShebang('#!/bin/bash\nset -e\n'), 'sh');
  assert.equal(specificFromShebang('#!/bin/sh -e\n'), 'sh');
  assert.equal(specificFromShebang('#!/usr/bin/perl -w\n'), 'pl');
  assert.equal(specificFromShebang('#!/usr/bin/env -S node --no-warnings\n'), 'js');
  assert.equal(specificFromShebang('#!/usr/bin/env ruby\n'), 'rb');
  assert.equal(specificFromShebang('#!/usr/bin/env Rscript\n'), 'r');
  assert.equal(specificFromShebang('#!/usr/bin/env pwsh\n'), 'ps1');
  assert.equal(specificFromShebang('#!/usr/bin/env unknown-thing\n'), undefined);
  assert.equal(specificFromShebang('# not a shebang\n'), undefined);
});

test('vim and Emacs modelines, at the start or the end', () => {
  assert.equal(specificFromModeline('x = 1\n# vim: set ft=python :\n'), 'py');
  assert.equal(specificFromModeline('# vi: filetype=sh\necho hi\n'), 'sh');
  assert.equal(specificFromModeline('# -*- mode: ruby; coding: utf-8 -*-\nputs 1\n'), 'rb');
  assert.equal(specificFromModeline('# bash completion for foo  -*- shell-script -*-\n_foo() { :; }\n'), 'sh');
  assert.equal(specificFromModeline('-- -*- lua -*-\nlocal x = 1\n'), 'lua');
  assert.equal(specificFromModeline('no modeline here\n'), undefined);
});

test('what the text states: a shebang, <?php, one whole fenced block', () => {
  assert.equal(languageStatedInText('#!/usr/bin/env python3\nimport sys\n'), 'py');
  assert.equal(languageStatedInText('<?php\necho "hi";\n'), 'php');
  assert.equal(languageStatedInText('```go\npackage main\n```\n'), 'go');
  assert.equal(languageStatedInText('~~~ts\nconst a = 1;\n~~~'), 'ts');
  // Two fences are a Markdown document, not one block.
  assert.equal(languageStatedInText('```go\na\n```\ntext\n```py\nb\n```\n'), undefined);
  assert.equal(languageStatedInText('const a = 1;\n'), undefined);
});

test('a hint decides without the model', async () => {
  // A worker that never answers: if the hint did not decide first, the call would fall back.
  const classifier = new LanguageClassifier({ timeoutMs: 50, files: { worker: new URL('./fixtures/fakeWorker.ts', import.meta.url), modelDir: 'silent' } });
  try {
    const ruby = 'def first\n  1\nend\n';
    assert.deepEqual(await classifier.classify(ruby, { hints: { language: 'python' } }), { specific: 'py', confidence: 1, source: 'hint' });
    assert.equal((await classifier.classify(ruby, { hints: { fileName: 'first.lua' } })).specific, 'lua');
    assert.equal((await classifier.classify('#!/bin/bash\necho "$1"\n')).source, 'hint');
    assert.equal((await classifier.classify('#!/bin/bash\necho "$1"\n')).specific, 'sh');
  } finally {
    await classifier.unload();
  }
});
