import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClassificationGenericEnum, ClassificationSpecificEnum } from '@pieces.app/pieces-os-client';
import {
  classificationOf,
  languageOf,
  specificFromFileName,
  specificFromLanguageName,
  specificFromGuesslang,
  specificFromHighlightJs,
  supportedLanguages,
} from '../../../src/core/classify/languages.ts';
import { cFamilyKind, looksLikeCommandLine, looksLikeProse, looksLikeSqlStatement, markupKind } from '../../../src/core/classify/fallbackClassifier.ts';

const specifics = new Set<string>(Object.values(ClassificationSpecificEnum));
const generics = new Set<string>(Object.values(ClassificationGenericEnum));

/** Every class of the guesslang model in @vscode/vscode-languagedetection 1.0.23. */
const guesslangIds =
  'js md sql css coffee csv ini matlab ts r yaml html kt lisp bat sh ml rs jl php asm clj lua rb py hs c prolog json ps1 ' +
  'cpp f90 mm pm groovy dart erl tex go xml ex java swift v dockerfile vba makefile cs dm pas scala cmake cbl toml';

test('specificFromFileName maps extensions and conventional names', () => {
  const cases: [string, string | undefined][] = [
    ['src/app.ts', 'ts'],
    ['App.TSX', 'tsx'],
    ['lib/index.mjs', 'mjs'],
    ['server.cjs', 'js'],
    ['C:\\work\\tool.PY', 'py'],
    ['main.go', 'go'],
    ['lib.rs', 'rs'],
    ['vector.hpp', 'hpp'],
    ['widget.cc', 'cc'],
    ['build.gradle.kts', 'kt'],
    ['.github/workflows/ci.yml', 'yml'],
    ['Dockerfile', 'dockerfile'],
    ['Dockerfile.prod', 'dockerfile'],
    ['api.dockerfile', 'dockerfile'],
    ['Makefile', 'hljs-makefile'],
    ['rules.mk', 'hljs-makefile'],
    ['CMakeLists.txt', 'hljs-cmake'],
    ['Gemfile', 'Gemfile'],
    ['Cargo.lock', 'Cargo.lock'],
    ['/home/me/.zshrc', '.zshrc'],
    ['ext.pyx.in', 'pyx.in'],
    ['notes.txt', 'txt'],
    ['README.md', 'md'],
    ['photo.JPG', 'jpg'],
    ['report.pdf', 'pdf'],
    ['query.psql', 'sql'],
    ['data.unknownext', undefined],
    ['LICENSE', undefined],
    ['', undefined],
    ['dir/', undefined],
  ];
  for (const [name, expected] of cases) assert.equal(specificFromFileName(name), expected, name);
});

test('every file-like value of the client enum is recognised as its own file name', () => {
  const special = /^hljs-|^UNKNOWN$|_/;
  for (const value of specifics) {
    if (special.test(value)) continue;
    const fileName = /^[A-Z.]/.test(value) || value.includes('.') ? value : `file.${value}`;
    assert.equal(specificFromFileName(fileName), value, fileName);
  }
});

test('classificationOf gives the generic class of a specific value', () => {
  const cases: [string, string][] = [
    ['ts', 'CODE'], ['py', 'CODE'], ['hljs-makefile', 'CODE'], ['json', 'CODE'], ['svg', 'CODE'],
    ['png', 'IMAGE'], ['jpeg', 'IMAGE'], ['webp', 'IMAGE'],
    ['mp4', 'VIDEO'], ['webm', 'VIDEO'],
    ['pdf', 'FILE'], ['zip', 'FILE'], ['docx', 'FILE'], ['mp3', 'FILE'],
    ['txt', 'TEXT'], ['text', 'TEXT'], ['log', 'TEXT'], ['md', 'TEXT'], ['csv', 'TEXT'],
    ['uniform_resource_locator', 'EXTERNAL_RESOURCE_REFERENCE'], ['unix_file_path', 'EXTERNAL_RESOURCE_REFERENCE'],
    ['UNKNOWN', 'UNKNOWN'],
  ];
  for (const [specific, generic] of cases) {
    assert.deepEqual(classificationOf(specific as ClassificationSpecificEnum), { generic, specific });
  }
  for (const value of specifics) {
    assert.ok(generics.has(classificationOf(value as ClassificationSpecificEnum).generic), value);
  }
});

test('every answer a detector can give maps to a value the client accepts', () => {
  for (const id of guesslangIds.split(' ')) {
    const specific = specificFromGuesslang(id);
    if (id === 'dm' || id === 'cbl') {
      assert.equal(specific, undefined, `${id} has no client value, so the fallback decides`);
      continue;
    }
    assert.ok(specific !== undefined && specifics.has(specific), id);
    assert.ok(languageOf(specific) !== undefined, `${id} is listed in supportedLanguages`);
  }
  assert.equal(specificFromGuesslang('constructor'), undefined);
  const subset = 'typescript javascript python java go rust c cpp csharp ruby php swift kotlin bash sql xml css markdown lua haskell scala powershell r yaml json dockerfile perl';
  for (const name of subset.split(' ')) {
    const specific = specificFromHighlightJs(name);
    assert.ok(specific !== undefined && specifics.has(specific), name);
  }
  for (const info of supportedLanguages) {
    assert.ok(specifics.has(info.specific), info.specific);
    const prose = ['txt', 'md', 'csv'].includes(info.specific);
    assert.equal(classificationOf(info.specific).generic, prose ? 'TEXT' : 'CODE', info.specific);
  }
  assert.equal(new Set(supportedLanguages.map((info) => info.specific)).size, supportedLanguages.length, 'no duplicates');
});

test('languageOf finds the language of an alias value', () => {
  assert.equal(languageOf('hpp')?.name, 'C++');
  assert.equal(languageOf('yml')?.vscodeId, 'yaml');
  assert.equal(languageOf('sh')?.vscodeId, 'shellscript');
  assert.equal(languageOf('png'), undefined);
});

test('the fallback heuristics tell prose, commands, SQL and markup apart', () => {
  assert.equal(looksLikeProse('Call the bank on Monday about the overdraft fee, then update the budget sheet.'), true);
  assert.equal(looksLikeProse('const total = items.reduce((a, b) => a + b, 0);'), false);
  assert.equal(looksLikeProse('# Title\n\n* one\n* two'), false, 'Markdown markers are not prose');
  assert.equal(looksLikeProse('return fooBar'), false);
  // Found reading Haskell imports and YAML as prose on the language benchmark.
  assert.equal(looksLikeProse('import Data.Tuple.Extra\nimport Data.List.Extra\nimport Data.Maybe\nimport Control.Applicative\nimport Prelude\n'), false);
  assert.equal(looksLikeProse('description: allow syntax highlighting for Jinja templates\nfiles:\n  - syntax/jinja.vim\n'), false);
  assert.equal(looksLikeProse('Remember to renew the domain before the end of the month.\nAsk Dana if the card on file has expired.\n'), true);
  assert.equal(looksLikeCommandLine('$ git commit -m "fix"'), true);
  assert.equal(looksLikeCommandLine('sudo apt-get install -y curl'), true);
  assert.equal(looksLikeCommandLine('Get-ChildItem -Recurse'), false);
  assert.equal(looksLikeCommandLine('ls\nls\nls\nls'), false, 'four lines is a script, not a one-liner');
  assert.equal(looksLikeCommandLine('export PATH="$HOME/bin:$PATH"'), true);
  assert.equal(looksLikeCommandLine('export function debounce(fn, ms) { return fn; }'), false, 'a JavaScript export is not a shell export');
  assert.equal(looksLikeSqlStatement('SELECT id FROM t'), true);
  assert.equal(looksLikeSqlStatement('select * from t'), true);
  assert.equal(looksLikeSqlStatement('select the best one from the list'), false);
  assert.equal(looksLikeSqlStatement('SELECT 1;'), true);
  assert.equal(markupKind('<ul><li>a</li></ul>'), 'html');
  assert.equal(markupKind('<dependency><artifactId>x</artifactId></dependency>'), 'xml');
  assert.equal(cFamilyKind('int main(void) { return 0; }'), 'c');
  assert.equal(cFamilyKind('std::vector<int> v;'), 'cpp');
});

test('a language as an agent names it maps to its specific value; unknown names to nothing', () => {
  const cases: Array<[string, string | undefined]> = [
    ['TypeScript', 'ts'], ['typescript', 'ts'], ['ts', 'ts'], ['.py', 'py'], ['Python', 'py'], ['c++', 'cpp'], ['C#', 'cs'],
    ['csharp', 'cs'], ['shellscript', 'sh'], ['bash', 'sh'], ['yaml', 'yaml'], ['json', 'json'], [' Rust ', 'rs'],
    ['klingon', undefined], ['', undefined], ['.', undefined],
  ];
  for (const [name, specific] of cases) assert.equal(specificFromLanguageName(name), specific, name);
});
