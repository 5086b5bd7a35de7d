/** Each import format's fixture read into snippets, and files that are not one of them refused. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseImportFile } from '../../../src/core/import/detect.ts';
import { raycastBody } from '../../../src/core/import/raycast.ts';
import { ImportFormatError, ImportTooLargeError, MAX_IMPORT_FILE_BYTES } from '../../../src/core/import/types.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/import/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseImportFile(name, fixture(name));

test('a .code-snippets file: JSONC read, scope gives the language, prefixes become tags and prefixes, array bodies joined, snippet syntax recorded', () => {
  const parsed = parse('web.code-snippets');
  assert.equal(parsed.format, 'vscode');
  assert.equal(parsed.snippets.length, 2);
  const fetchJson = parsed.snippets[0]!;
  assert.equal(fetchJson.name, 'Fetch JSON');
  assert.equal(fetchJson.language, 'js');
  assert.deepEqual(fetchJson.tags, ['fetchjson', 'fj']);
  assert.equal(fetchJson.description, 'Fetch a URL and parse its JSON body');
  assert.equal(fetchJson.text, 'const response = await fetch(${1:url});\nconst data = await response.json();');
  assert.deepEqual(fetchJson.prefixes, ['fetchjson', 'fj']);
  assert.equal(fetchJson.syntax, true, 'its body has a placeholder');
  assert.equal(parsed.snippets[1]!.syntax, true);
  assert.equal(parsed.snippets[1]!.language, undefined, 'no scope in a .code-snippets file: classified on import');
  assert.equal(parsed.failures.length, 1);
  assert.match(parsed.failures[0]!.source, /Broken/);
  assert.match(parsed.failures[0]!.reason, /body/);
});

test('a per-language snippet file takes its language from the file name', () => {
  const parsed = parse('python.json');
  assert.equal(parsed.format, 'vscode');
  assert.deepEqual(parsed.snippets.map((s) => s.language), ['py', 'py']);
  assert.deepEqual(parsed.snippets[1]!.tags, ['dc', 'dataclass']);
});

test('a VS Code snippet without tab stops or variables is plain code: its escapes undone, no prefix when it has none', () => {
  const parsed = parseImportFile('shellscript.json', JSON.stringify({
    Home: { prefix: ['home', ' ', 'HOME'], body: ['cd \\$HOME', 'echo \\} done'] },
    Bare: { body: 'ls -la' },
  }));
  const [home, bare] = parsed.snippets;
  assert.deepEqual([home!.text, home!.syntax, home!.prefixes, home!.tags], ['cd $HOME\necho } done', undefined, ['home'], ['home']], 'prefixes trimmed and one per text ignoring case, as tags');
  assert.deepEqual([bare!.text, bare!.syntax, bare!.prefixes], ['ls -la', undefined, undefined]);
});

test('massCode db.json: folders (with their parents) and tags become tags, fragments become assets, trash is left out', () => {
  const parsed = parse('massCode-db.json');
  assert.equal(parsed.format, 'masscode');
  assert.deepEqual(parsed.snippets.map((s) => s.name), ['Active users', 'Retry helper › retry.py', 'Retry helper › usage']);
  assert.deepEqual(parsed.snippets[0]!.tags, ['SQL', 'Backend', 'reporting']);
  assert.equal(parsed.snippets[0]!.language, 'sql');
  assert.equal(parsed.snippets[0]!.description, 'Users seen this month');
  assert.deepEqual(parsed.snippets.map((s) => s.language), ['sql', 'py', 'sh']);
  assert.equal(parsed.failures.length, 1, 'the empty snippet fails with a reason');
  assert.match(parsed.failures[0]!.reason, /empty/);
});

test('a Pieces /assets export: original text, language, tags and description; binary assets fail with a reason', () => {
  const parsed = parse('pieces-assets.json');
  assert.equal(parsed.format, 'pieces');
  assert.equal(parsed.snippets.length, 1);
  const debounce = parsed.snippets[0]!;
  assert.equal(debounce.name, 'Debounce');
  assert.equal(debounce.language, 'ts');
  assert.deepEqual(debounce.tags, ['timing', 'utils']);
  assert.equal(debounce.description, 'Delays calls until the input settles');
  assert.match(debounce.text, /^export function debounce/);
  assert.equal(parsed.failures.length, 1);
  assert.match(parsed.failures[0]!.source, /Logo/);
});

test('Gist JSON: one asset per file with the gist description; truncated and content-less files fail', () => {
  const single = parse('gist.json');
  assert.equal(single.format, 'gist');
  assert.deepEqual(single.snippets.map((s) => [s.name, s.language]), [['hello_world.rb', 'rb'], ['hello_world.py', 'py']]);
  assert.equal(single.snippets[0]!.description, 'Hello world examples');
  assert.equal(single.failures.length, 1);
  assert.match(single.failures[0]!.reason, /truncated/);
  const list = parse('gists-list.json');
  assert.equal(list.format, 'gist');
  assert.equal(list.snippets.length, 0);
  assert.match(list.failures[0]!.reason, /GET \/gists\/\{id\}/);
});

test('a gist file named `.h` without GitHub’s language is C, or C++ when its text has syntax only C++ has', () => {
  const gist = (content: string) =>
    JSON.stringify({ id: 'a1', description: 'headers', files: { 'tree.h': { filename: 'tree.h', language: null, content } } });
  const cpp = parseImportFile('gist.json', gist('namespace tree {\nclass Node;\n}\n'));
  assert.equal(cpp.snippets[0]!.language, 'cpp');
  const c = parseImportFile('gist.json', gist('typedef struct node node;\nnode *node_new(void);\n'));
  assert.equal(c.snippets[0]!.language, 'h', 'C’s header, as Pieces spells it');
});

test('Raycast snippets: keyword as tag and prefix, placeholders as VS Code tab stops, plain text kept as written', () => {
  const parsed = parse('raycast.json');
  assert.equal(parsed.format, 'raycast');
  const byName = new Map(parsed.snippets.map((snippet) => [snippet.name, snippet]));
  const log = byName.get('Console Log')!;
  // The keyword's marks (`!log`) are no part of a word an editor completes.
  assert.deepEqual([log.text, log.syntax, log.tags, log.prefixes], ['console.log($0)', true, ['log'], ['log']]);
  assert.deepEqual(byName.get('Commit and Push')!.prefixes, ['gcp']);
  // The same argument is the same tab stop (VS Code mirrors it); a default is the placeholder's text.
  assert.equal(byName.get('Commit and Push')!.text, 'git commit -m "${1:message}" && git push origin ${2:main} # ${1:message}');
  // Dates become VS Code's variables; a format VS Code cannot follow stays as text; a `$` of the text stays a `$`.
  assert.equal(
    byName.get('Release Note')!.text,
    'Released $CURRENT_YEAR-$CURRENT_MONTH-$CURRENT_DATE at $CURRENT_HOUR:$CURRENT_MINUTE ({date format="EEEE"\\}), build $UUID: costs \\$5 per ${1|month,year|}.',
  );
  const thanks = byName.get('Feedback Thanks')!;
  assert.deepEqual([thanks.text, thanks.syntax, thanks.language], ['Thanks for taking the time to send us your feedback. We read every message.', undefined, undefined]);
  assert.deepEqual(parsed.failures.map((failure) => failure.reason), ['the snippet is empty']);
});

test('a Raycast placeholder with an attribute list that is not name="value" pairs stays text, however long the run', () => {
  assert.deepEqual(raycastBody('{clipboard | uppercase} {cursor}'), { text: '{clipboard | uppercase\\} $0', syntax: true });
  assert.deepEqual(raycastBody('{argument name=unquoted}'), { text: '{argument name=unquoted}', syntax: false });
  assert.deepEqual(raycastBody('{argument name="a,b|c"} {argument options="x|y,z\\\\"}'), { text: '${1:a,b|c} ${2|x\\|y,z\\\\\\\\|}', syntax: true });
  // Runs of what almost makes a placeholder (never closed) stay text: no placeholder, plain text.
  const text = '{argument name="x" '.repeat(20_000);
  assert.deepEqual(raycastBody(text), { text, syntax: false });
});

test('the Snippets extension’s export: folders as tags, prefixes, resolveSyntax, languages by extension', () => {
  const parsed = parse('snippets-extension.json');
  assert.equal(parsed.format, 'snippets-extension');
  const byName = new Map(parsed.snippets.map((snippet) => [snippet.name, snippet]));
  const clean = byName.get('Delete merged branches')!;
  assert.deepEqual([clean.tags, clean.prefixes, clean.language, clean.syntax], [['Git', 'Branches', 'gbclean'], ['gbclean'], 'sh', undefined]);
  assert.deepEqual(byName.get('Amend without editing')!.tags, ['Git']);
  const fetchTimeout = byName.get('Fetch with timeout')!;
  assert.deepEqual([fetchTimeout.syntax, fetchTimeout.description, fetchTimeout.tags], [true, 'fetch that gives up', ['fetcht']]);
  // Snippet syntax without a tab stop is the text VS Code would insert; a value without resolveSyntax is inserted as it is.
  assert.deepEqual([byName.get('Price in PHP')!.text, byName.get('Price in PHP')!.language, byName.get('Price in PHP')!.syntax], ['echo $price;', 'php', undefined]);
  assert.deepEqual([byName.get('Shell price')!.text, byName.get('Shell price')!.syntax], ['echo "$PRICE ${CURRENCY}"', undefined]);
  assert.deepEqual(parsed.failures, [{ source: 'snippets-extension.json › removed', reason: 'the snippet is empty' }]);
});

test('the Snippets extension’s tree is read without recursion, however deep', () => {
  // Written out as text: JSON.stringify itself recurses.
  const depth = 5_000;
  const folder = '{"id":3,"label":"f","folder":true,"children":[';
  const tree = `${folder.repeat(depth)}{"id":2,"label":"deepest","value":"echo deep","children":[]}${']}'.repeat(depth)}`;
  const parsed = parseImportFile('data.json', `{"id":1,"parentId":-1,"label":"snippets","lastId":3,"children":[${tree}]}`);
  assert.deepEqual(parsed.snippets.map((snippet) => [snippet.name, snippet.text, snippet.tags]), [['deepest', 'echo deep', ['f']]]);
  // Distinct names: the snippet takes the top 32 folders' names as tags (a path shared, not copied, below them).
  const named = Array.from({ length: depth }, (_, i) => `{"id":${i + 3},"label":"f${i}","folder":true,"children":[`).join('');
  const deep = parseImportFile('data.json', `{"id":1,"parentId":-1,"label":"snippets","lastId":3,"children":[${named}{"id":2,"label":"deepest","value":"echo deeper","children":[]}${']}'.repeat(depth)}]}`);
  assert.deepEqual(deep.snippets[0]!.tags, Array.from({ length: 32 }, (_, i) => `f${i}`));
});

test('JetBrains live templates: the abbreviation as prefix, variables as tab stops in declared order, defaults, $END$, $SELECTION$, $$', () => {
  const parsed = parseImportFile('jetbrains-templates.xml', fixture('jetbrains-templates.xml'));
  assert.equal(parsed.format, 'jetbrains');
  const byPrefix = new Map(parsed.snippets.map((snippet) => [snippet.prefixes?.[0], snippet]));
  const logger = byPrefix.get('logg')!;
  assert.deepEqual([logger.name, logger.language, logger.tags, logger.syntax], ['SLF4J logger for this class', 'java', ['Logging', 'logg'], true]);
  // className() is the file's name in VS Code; a variable's default literal is its placeholder.
  assert.equal(logger.text, 'private static final org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger(${1:$TM_FILENAME_BASE}.class);\n$0');
  assert.equal(byPrefix.get('logi')!.text, 'logger.info("${2:Got}: {\\}", ${1:value});$0', 'VALUE is declared first, so it is the first stop');
  assert.equal(byPrefix.get('logi')!.name, 'logi', 'no description: named by its abbreviation');
  const loop = byPrefix.get('fori2')!;
  assert.deepEqual([loop.text, loop.language], ['for (let ${1:i} = 0; ${1:i} < ${2:ARRAY}.length; ${1:i}++) {\n  $TM_SELECTED_TEXT$0\n\\}', 'js']);
  const price = byPrefix.get('price')!;
  assert.deepEqual([price.text, price.syntax, price.language], ['echo "Total: $5"', undefined, 'sh']);
  assert.deepEqual(parsed.failures, [{ source: 'jetbrains-templates.xml › broken', reason: 'the template has no value' }]);
});

test('a template set is known by its root element, past a declaration, comments and a doctype of any length', () => {
  const set = '<templateSet group="g"><template name="t" value="x" description="d"/></templateSet>';
  const licence = `<!--\n${'Licensed under the Apache License, Version 2.0.\n'.repeat(200)}-->`;
  for (const text of [`\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n${licence}\n${set}`, `<!DOCTYPE templateSet [<!ENTITY e "v">]>\n<?pi x?>${set}`]) {
    assert.equal(parseImportFile('t.xml', text).format, 'jetbrains', text.slice(0, 40));
  }
  // A project holding a template set is not one.
  assert.throws(() => parseImportFile('pom.xml', `<project>${set}</project>`), /not a file Satchel imports/);
  assert.throws(() => parseImportFile('t.xml', '<!-- never closed <templateSet>'), /not a file Satchel imports/);
});

test('XML that is not a template set, or not well-formed, is refused whole; entities are not expanded', () => {
  assert.throws(() => parseImportFile('pom.xml', '<project><x/></project>'), (error) => error instanceof ImportFormatError && /not a file Satchel imports/.test(error.message));
  assert.throws(() => parseImportFile('t.xml', '<templateSet><template name="t" value="x"></templateSet>'), /not well-formed XML/);
  const laughs = '<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><templateSet group="x"><template name="t" value="&b;"/></templateSet>';
  assert.throws(() => parseImportFile('t.xml', laughs), /undefined entity/);
  assert.throws(() => parseImportFile('t.json', '<templateSet/>', 'vscode'), /not a vscode file/);
  assert.throws(() => parseImportFile('t.xml', '{"a": {"body": "x"}}', 'jetbrains'), /not a jetbrains file/);
});

test('files that are not JSON, or no import format, are refused with typed errors', () => {
  assert.throws(() => parse('truncated.json'), (error) => error instanceof ImportFormatError && /not JSON/.test(error.message));
  assert.throws(() => parse('unknown.json'), (error) => error instanceof ImportFormatError && /not a file Satchel imports/.test(error.message));
  assert.throws(() => parseImportFile('huge.json', ' '.repeat(MAX_IMPORT_FILE_BYTES + 1)), ImportTooLargeError);
  assert.throws(() => parseImportFile('web.code-snippets', fixture('web.code-snippets'), 'masscode'), /not a masscode file/);
});
