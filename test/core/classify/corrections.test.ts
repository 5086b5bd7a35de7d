import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import { tokensOf } from '../../../src/core/classify/tokenModel.ts';
import { chooseLanguage } from '../../../src/core/classify/decision.ts';
import { looksLikeCommandLine, looksLikeProse } from '../../../src/core/classify/fallbackClassifier.ts';
import { assertLinear } from '../../support/linearTime.ts';

test('a code fence inside the text makes it Markdown, whatever the code is', () => {
  const readme = 'Install it, then:\n\n```js\nconst acorn = require("acorn");\nacorn.parse(code);\n```\n';
  assert.equal(correctedBySyntax(readme, 'js'), 'md');
  // Backticks inside code are not a fence.
  assert.equal(correctedBySyntax('const fence = "```";\nconsole.log(fence);\n', 'js'), 'js');
});

test('lines that are all `key: value` or list items are YAML; code with colons is not', () => {
  assert.equal(correctedBySyntax('rules:\n  eol-last: error\n  eqeqeq: [error, allow-null]\n  no-trailing-spaces: error\n', 'js'), 'yaml');
  assert.equal(correctedBySyntax('packages:\n- consumer-pkg\n- impl-pkg\n- logger-sig\n', 'txt'), 'yaml');
  // CSS declarations end with `;`, a Python dict's entries with `,`.
  assert.equal(correctedBySyntax('.a {\n  color: red;\n  margin: 0;\n  padding: 1px;\n}\n', 'css'), 'css');
  assert.equal(correctedBySyntax('config = {\n    "name": "x",\n    "size": 3,\n    "tags": [],\n}\n', 'py'), 'py');
});

test('the earlier corrections still hold: C++ syntax read as C, Kotlin read as Java, CommonJS read as TypeScript', () => {
  assert.equal(correctedBySyntax('std::vector<int> values;\nvalues.push_back(1);\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('fun main() {\n    val x = 1\n}\n', 'java'), 'kt');
  assert.equal(correctedBySyntax('const fs = require("fs");\nmodule.exports = fs;\n', 'ts'), 'js');
});

test('a method assigned to a prototype, or `var self = this`, is JavaScript unless a type says TypeScript', () => {
  assert.equal(correctedBySyntax('Glob.prototype._finish = function () {\n  this.emit("end");\n};\n', 'ts'), 'js');
  assert.equal(correctedBySyntax('var self = this;\nsetTimeout(function () { self.done(); });\n', 'ts'), 'js');
  assert.equal(correctedBySyntax('Glob.prototype._finish = function (): void {\n  this.emit("end");\n};\n', 'ts'), 'ts');
  assert.equal(correctedBySyntax('const self = this;\nself.done();\n', 'ts'), 'ts');
});

test('a name’s spelling is a token of its own', () => {
  const tokens = tokensOf('my_value = someValue + OtherValue + MAX_SIZE\n');
  for (const shape of ['Ksnake', 'Kcamel', 'KPascal', 'KCONST']) assert.ok(tokens.has(shape), shape);
  assert.ok(!tokensOf('x = y\n').has('Ksnake'));
});

test('a declaration typed with a class, or a cast to one, is TypeScript; an import renamed with `as` is not', () => {
  assert.equal(correctedBySyntax('const x: SomeInterface = { value: realValue };\nexpect(x.value).toBe(42);\n', 'js'), 'ts');
  assert.equal(correctedBySyntax('if (errorConstructor) {\n  expect((cause as Error).name).toBe(name);\n}\n', 'js'), 'ts');
  assert.equal(correctedBySyntax("import { a as B } from './b.js';\nexport { B as C };\nB();\n", 'js'), 'js');
  // An object literal's `key: Value` is not a type.
  assert.equal(correctedBySyntax('const options = { base: Base, flags: [] };\n', 'js'), 'js');
});

test('C++ casts, `this->`, overloaded operators and `const T&` parameters read as C are C++; C named `operator` is not', () => {
  assert.equal(correctedBySyntax('bool operator==(const Mark& other) const {\n  return pos == other.pos;\n}\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('void f(const Value& v) {\n  this->count = static_cast<int>(v.size());\n}\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('int operator;\nchar *name = p->name;\nreturn operator + 1;\n', 'c'), 'c');
});

test('a line’s first and last three characters and pairs of words one apart are tokens', () => {
  const tokens = tokensOf('  <td>{groups[1]}</td>\ndef first(value):\n');
  for (const token of ['C^<td', 'Ctd>$', 'def _ (', 'C^def', 'Ce):$']) assert.ok(tokens.has(token), token);
});

test('sentences in a Markdown list are Markdown, plain sentences text, a docstring’s sentences closed by `"""` not prose', () => {
  const list = 'If you really must do this, you have a few options:\n\n- Limit yourself to installing tagged releases, so that you only get zipped installs.\n- Add the dependencies as real submodules instead.\n';
  assert.equal(chooseLanguage(list, []).specific, 'md');
  assert.equal(chooseLanguage('This module holds the source of features which are not included by default.\nThe artifacts are not deployed.\n', []).specific, 'txt');
  assert.equal(looksLikeProse('    Returns a tuple of the keychain and the path to the temporary\n    directory that contains it.\n    """\n'), false);
});

// Lines cut from the tuning packages' files (extract.ts SIZES=lines), each read as text or the wrong
// language before the rules below (issue 31, one to three lines).
test('a line or three of code is not prose: imports, declarations, cmdlets, a key given a value', () => {
  for (const line of ['import java.util.Objects;\n', 'package org.koin.core\n', 'using System.Collections.Generic;\n', 'global using Serilog.Configuration;\n', 'pub use lib::default::Default;\n', 'internal let inner: Inner\n', 'import Data.Tuple.Extra\n', 'Write-Output "build: Package version suffix is $suffix"\n', 'runs-on: ubuntu-latest\n', '    break\nexcept OSError as e:\n']) {
    assert.equal(looksLikeProse(line), false, line);
  }
  assert.equal(chooseLanguage('import java.util.Objects;\n', []).specific, 'java');
  assert.equal(chooseLanguage('using System.Collections.Generic;\n', []).specific, 'cs');
  // A sentence is still one, a capitalised label before it included; so is a sentence that opens with a command's name.
  for (const sentence of ['Note: the build takes about ten minutes.\n', 'make sure the tests pass before you push.\n', 'The release is signed, then published to npm.\n']) {
    assert.equal(chooseLanguage(sentence, []).specific, 'txt', sentence);
  }
});

test('a command with a quoted message and a statement with quoted values are shell and SQL, not sentences', () => {
  assert.equal(chooseLanguage('echo "File not found. Did you run the Autobahn test script?"\n', []).specific, 'sh');
  assert.equal(chooseLanguage('cd ..\necho "Formatting Swift sources in $(pwd)"\n', []).specific, 'sh');
  assert.equal(chooseLanguage("INSERT INTO category (id, type) VALUES (2, 'Young Adult');\n", []).specific, 'sql');
  assert.equal(chooseLanguage("INSERT IGNORE INTO types VALUES (1, 'cat');\n", []).specific, 'sql');
  // A command's name given a value is a variable of code (`df`, `head`, `sort` are commands too).
  assert.equal(looksLikeCommandLine("df = pd.read_csv('data.csv')\n"), false);
  assert.equal(looksLikeCommandLine('ps <- ggplot(df, aes(x, y))\n'), false);
  assert.equal(looksLikeCommandLine('head += 1\n'), false);
  assert.equal(looksLikeCommandLine('df -h\n'), true);
});

test('a line or two of `key: value` without braces or semicolons is YAML, not CSS; declarations and struct fields are not', () => {
  assert.equal(correctedBySyntax('theme: jekyll-theme-cayman\n', 'css'), 'yaml');
  assert.equal(correctedBySyntax('border-width: 1px;\nborder-style: solid;\n', 'css'), 'css');
  assert.equal(correctedBySyntax('width: u32,\nheight: u32,\n', 'css'), 'css');
});

test('the eleventh pass: GoogleTest and Catch2 are C++, Perl’s own syntax is Perl, PowerShell’s is PowerShell, a module’s directives are Java', () => {
  assert.equal(correctedBySyntax('TEST(ExactlyTest, OnZero) {\n  const int c = Exactly(0);\n}\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('TEST_CASE("parses") {\n  REQUIRE(parse("1") == 1);\n}\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('ASSERT_EQ(1, connect_cb_called);\nuv_run(loop, UV_RUN_DEFAULT);\n', 'c'), 'c', "libuv's C tests have ASSERT_EQ too");
  assert.equal(correctedBySyntax("if ($input =~ m/^[Yy]/) {\n    foreach my $file (@pkg_files) {\n", 'ps1'), 'pl');
  assert.equal(correctedBySyntax("has 'class' => (\n    is       => 'ro',\n    isa      => 'Str',\n);\n", 'php'), 'pl');
  assert.equal(correctedBySyntax('if line =~ /^#/\n  next\nend\n', 'rb'), 'rb', 'Ruby matches with =~ too');
  assert.equal(correctedBySyntax("$arr = ['is' => 'ro'];\necho $arr['is'];\n", 'php'), 'php');
  assert.equal(correctedBySyntax('    & dotnet test -c Release\n    if($LASTEXITCODE -ne 0) { exit 2 }\n    Pop-Location\n', 'sh'), 'ps1');
  assert.equal(correctedBySyntax('if [ "$x" -ne 0 ]; then\n  popd\nfi\n', 'sh'), 'sh');
  assert.equal(correctedBySyntax('module kotlinx.coroutines.core {\n    requires transitive kotlin.stdlib;\n    exports kotlinx.coroutines;\n}\n', 'kt'), 'java');
  assert.equal(correctedBySyntax('val exports = listOf(1)\nrequires(exports)\n', 'kt'), 'kt');
});

test('DDL in capitals that reads as words is SQL when a line opens a statement and one ends with `;`', () => {
  const ddl = "    DATAFILE 'space32.dbf'\n    SIZE 100M\n    AUTOEXTEND ON;\n\n-- create users:\nCREATE USER typeorm\n    IDENTIFIED BY \"oracle\"\n";
  assert.equal(chooseLanguage(ddl, []).specific, 'sql');
  assert.equal(chooseLanguage('GRANT CONNECT, RESOURCE TO typeorm;\nALTER USER typeorm QUOTA UNLIMITED ON users;\n', []).specific, 'sql');
  assert.equal(chooseLanguage('Create a user for the app, then grant it the rights it needs.\nDrop the old one when done.\n', []).specific, 'txt');
});

test('a long run of blank lines costs linear time in the corrections (a `^\\s*` under /m crossed them: 13 s for 80k lines)', () => {
  const shapes = [
    (n: number) => `int main(void) {\n  return 0;\n}\n${'\n'.repeat(n)}int f(void) { return 1; }\n`,
    (n: number) => `my $x = 1;\nprint $x;\n${' \n'.repeat(n)}print $x;\n`,
    (n: number) => `const a = 1;\nfunction f() { return a; }\n${'\n'.repeat(n)}f();\n`,
  ];
  chooseLanguage(shapes[0]!(10), []); // the token model loads outside the timing
  for (const [i, shape] of shapes.entries()) {
    assertLinear(`shape ${i}, blank lines`, shape, (text) => chooseLanguage(text, []), { small: 1 << 12, large: 1 << 16, slackMs: 50, runs: 3 });
  }
});
