/** VS Code snippet syntax as Satchel reads and writes it: escaping plain code, features, previews and tab stop spans. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeSnippetText, hasSnippetFeatures, literalText, renderSnippet, snippetBody, tabStopSpans } from '../../../src/core/snippets/snippetSyntax.ts';

test('plain code is escaped as SnippetString.appendText escapes it: $, } and \\', () => {
  // VS Code's own: value.replace(/\$|}|\\/g, '\\$&').
  const code = 'echo "$HOME" && php -r \'echo $argv[1];\' ${x} \\n }';
  assert.equal(escapeSnippetText(code), code.replace(/\$|}|\\/g, '\\$&'));
  assert.equal(snippetBody({ text: code, syntax: false }), escapeSnippetText(code));
  assert.equal(snippetBody({ text: 'console.log(${1:x})', syntax: true }), 'console.log(${1:x})', 'snippet syntax is used as it is');
  assert.equal(literalText(escapeSnippetText(code)), code, 'escaping is undone exactly');
  assert.equal(renderSnippet(escapeSnippetText(code)), code, 'an escaped body inserts the code as written');
});

test('snippet features: tab stops, placeholders, choices and variables; a lone or escaped $ is none', () => {
  for (const body of ['$1', 'a ${1:name} b', '${2|yes,no|}', '$TM_FILENAME', '${CURRENT_YEAR}', '${1/(.*)/${1:/upcase}/}', 'x$0']) {
    assert.ok(hasSnippetFeatures(body), body);
  }
  for (const body of ['echo \\$HOME', 'cost: $ 5', 'a $', '\\${1:x}', 'price $.', 'plain', '\\\\']) {
    assert.ok(!hasSnippetFeatures(body), body);
  }
});

test('a preview shows what is inserted: defaults, mirrors, first choice, variable names', () => {
  assert.equal(renderSnippet('for (const ${1:item} of ${2:items}) {\n\tconsole.log($1);\n}'), 'for (const item of items) {\n\tconsole.log(item);\n}');
  assert.equal(renderSnippet('$1 = ${1:x}'), 'x = x', 'a mirror before its placeholder');
  assert.equal(renderSnippet('${1|GET,POST|} ${2:a ${3:nested} b}$0'), 'GET a nested b');
  assert.equal(renderSnippet('${TM_FILENAME} ${NAME:fallback} $UNKNOWN'), 'TM_FILENAME fallback UNKNOWN');
  assert.equal(renderSnippet('${1:a \\} b} \\$2'), 'a } b $2');
  assert.equal(renderSnippet('${1:unclosed'), '${1:unclosed', 'an unclosed construct stays text');
  assert.equal(renderSnippet('${1/(.*)/${1:/upcase}/g} end'), ' end', 'a transform is skipped whole');
});

test('tab stop spans cover each outermost tab stop and placeholder, not escaped ones', () => {
  const body = 'a ${1:x ${2:y}} $3 \\$4 ${5|p,q|}';
  const spans = tabStopSpans(body).map(([start, end]) => body.slice(start, end));
  assert.deepEqual(spans, ['${1:x ${2:y}}', '$3', '${5|p,q|}']);
  assert.deepEqual(tabStopSpans('${1:a \\} b}').map(([s, e]) => e - s), ['${1:a \\} b}'.length]);
});
