/** Templates made from a selection: what becomes a placeholder, what never does, and escaping. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STOPS, prefixFromName, templateFromSelection } from '../../../src/core/snippets/template.ts';
import { hasSnippetFeatures, renderSnippet } from '../../../src/core/snippets/snippetSyntax.ts';

test('repeated identifiers across lines are one linked placeholder; string literals become placeholders', () => {
  const code = 'const user = await load(userId);\nif (!user) throw new Error("missing");\nreturn user;\n';
  const { body, stops } = templateFromSelection(code, 'ts');
  assert.equal(body, 'const ${1:user} = await load(userId);\nif (!$1) throw new Error("${2:missing}");\nreturn $1;\n');
  assert.deepEqual(stops.map((s) => [s.index, s.placeholder, s.kind, s.occurrences]), [
    [1, 'user', 'identifier', 3],
    [2, 'missing', 'string', 1],
  ]);
  assert.equal(renderSnippet(body), code, 'the template inserts the selection back before anything is typed');
});

test('identifiers inside strings and comments are not linked, and their text is kept', () => {
  const code = 'let name = "name of the name";\n// name is set below\nname = name.trim();\n';
  const { body, stops } = templateFromSelection(code, 'js');
  assert.equal(body, 'let ${1:name} = "${2:name of the name}";\n// name is set below\n$1 = $1.trim();\n');
  assert.equal(stops.length, 2);
  assert.equal(renderSnippet(body), code);
});

test('$ and \\ in the code are escaped so they insert as themselves; shell and PHP variables keep their $', () => {
  const shell = 'dir="$HOME/src"\ncd $dir && echo \\$PATH $dir\n';
  const template = templateFromSelection(shell, 'sh');
  assert.equal(template.body, '${1:dir}="${2:\\$HOME/src}"\ncd \\$$1 && echo \\\\\\$PATH \\$$1\n', 'the assignment and the $dir uses are one placeholder');
  assert.equal(renderSnippet(template.body), shell);
  const php = '$total = $price * 2; echo $total;';
  const phpTemplate = templateFromSelection(php, 'php');
  assert.equal(phpTemplate.body, '\\$${1:total} = \\$price * 2; echo \\$$1;', 'the $ stays outside the placeholder');
  assert.equal(renderSnippet(phpTemplate.body), php);
  const regex = 'const re = /\\$\\{(\\w+)\\}/g; re.test(re.source);';
  assert.equal(renderSnippet(templateFromSelection(regex, 'js').body), regex, 'a regex literal full of $ { } \\ survives');
});

test('keywords, well-known globals, one-letter names and members after . -> :: never become placeholders', () => {
  const code = 'for (let i = 0; i < items.length; i++) {\n  console.log(items[i].length, this.length);\n  return null;\n}\nreturn null;';
  const { stops } = templateFromSelection(code, 'ts');
  assert.deepEqual(stops.map((s) => s.placeholder), ['items'], '`length` is only ever a member; `i`, `console`, `return`, `null`, `this` are not names');
  const rust = "fn pick<'a>(left: &'a str, right: &'a str) -> &'a str { if left.len() > right.len() { left } else { right } }";
  const rs = templateFromSelection(rust, 'rs');
  assert.deepEqual(rs.stops.map((s) => s.placeholder), ['left', 'right'], "lifetimes ('a) are not strings, len is a member");
  assert.equal(renderSnippet(rs.body), rust);
  const cpp = 'std::vector<int> values; values.push_back(1); obj->values = values;';
  assert.deepEqual(templateFromSelection(cpp, 'cpp').stops.map((s) => [s.placeholder, s.occurrences]), [['values', 3]], 'std is reserved; ->values is a member');
  const sql = "select name from users where users.name = 'x' and name is not null";
  assert.deepEqual(templateFromSelection(sql, 'sql').stops.map((s) => s.placeholder), ['name', 'users', 'x'], 'SQL keywords in any case are not names');
});

test('empty strings, template literals with ${} and docstrings are not placeholders; comments in # languages are kept', () => {
  const code = 'msg = ""\nmsg = `${msg}!`\n';
  const { body, stops } = templateFromSelection(code, 'js');
  assert.deepEqual(stops.map((s) => s.placeholder), ['msg']);
  assert.ok(body.includes('`\\${msg}!`'), 'the interpolation is escaped, not a placeholder');
  const python = 'def area(width, height):\n    """width times height"""\n    # width and height\n    return width * height\n';
  const py = templateFromSelection(python, 'py');
  assert.deepEqual(py.stops.map((s) => s.placeholder), ['width', 'height']);
  assert.equal(renderSnippet(py.body), python);
});

test('a selection with nothing to propose stays plain (no snippet feature); many candidates keep the most repeated', () => {
  const plain = templateFromSelection('x = 1\n', 'py');
  assert.equal(plain.stops.length, 0);
  assert.ok(!hasSnippetFeatures(plain.body));
  const names = Array.from({ length: 15 }, (_, i) => `name${i}`);
  const code = names.map((name, i) => `${name} = ${name}${i < 3 ? ` + ${name} + ${name}` : ''};`).join('\n');
  const { stops, body } = templateFromSelection(code, 'js');
  assert.equal(stops.length, MAX_STOPS);
  assert.deepEqual(stops.slice(0, 3).map((s) => s.placeholder), ['name0', 'name1', 'name2'], 'the most repeated are kept');
  assert.deepEqual(stops.map((s) => s.index), Array.from({ length: MAX_STOPS }, (_, i) => i + 1), 'numbered in the order they appear');
  assert.equal(renderSnippet(body), code);
});

test('unclosed quotes and odd input do not throw and insert the selection back', () => {
  for (const code of ["it's a note", '"unterminated\nnext line', '`multi\nline ${x}`', '/* open comment', 'a\\', '$', '${1:x}', '😀 ünïcode = ünïcode']) {
    const { body } = templateFromSelection(code, 'ts');
    assert.equal(renderSnippet(body), code, JSON.stringify(code));
  }
});

test('a prefix proposed from the name: an identifier kept, words in camelCase, short', () => {
  assert.equal(prefixFromName('loadUser'), 'loadUser');
  assert.equal(prefixFromName(' Fetch JSON with retries and a timeout '), 'fetchJsonWithRetries');
  assert.equal(prefixFromName('Überprüfe die Eingabe'), 'überprüfeDieEingabe');
  assert.equal(prefixFromName('a'.repeat(40)).length, 24);
  assert.equal(prefixFromName('!!!'), '');
});
