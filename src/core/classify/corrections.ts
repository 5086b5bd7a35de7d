/**
 * What the models read as one language but has syntax only a close one has is that one. Each rule
 * was chosen out of fold on the tuning packages (test/bench/languages/outOfFold.ts), where it was
 * right on the snippets it changed (in brackets) and wrong on none unless said.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';

/** PowerShell's approved verbs, as a cmdlet's name starts (`Write-Host`, `Get-ChildItem`): a source for RegExp. */
export const cmdlet = '(Get|Set|New|Remove|Write|Read|Add|Clear|Invoke|Start|Stop|Test|Import|Export|Out|Select|Where|ForEach|Format|Convert|ConvertTo|ConvertFrom|Update|Install|Uninstall|Register|Enable|Disable|Wait|Join|Split|Measure|Sort|Group|Copy|Move|Rename|Push|Pop|Resolve|Restart|Show|Find|Save|Compare|Expand|Send|Receive|Use|Trace|Debug)-[A-Z]\\w*';

/** Syntax C++ has and C has not: what makes a header (`.h`, either language's) C++ (hints.ts). */
const cppOnly =
  /\bstd::|\btemplate\s*<|\bnamespace\s+\w+\s*\{|\bnullptr\b|\bconstexpr\b|\b(public|private|protected)\s*:|\bvirtual\b|#include\s*<(iostream|string|vector|map|memory|algorithm|utility|cstdint|cstddef|cstdlib|cstring|functional|type_traits)>|::|\bclass\s+\w+|\bthis->|\b(static_cast|dynamic_cast|reinterpret_cast|const_cast)\s*<|\b(explicit|override|noexcept)\b|\boperator\s*(\(\)|[-+*/%^&|~!=<>[\]]+)\s*\(|\bconst\s+\w+\s*&\s*\w/;

/** Whether the text has syntax only C++ has. */
export function hasCppOnlySyntax(text: string): boolean {
  return cppOnly.test(text);
}

const typeScriptOnly =
  /[\w)\]]\??:\s*(string|number|boolean|any|unknown|void|never|object|readonly|Promise|Array|Record|[A-Z]\w*(<|\[\]|\s*[|=,;)])|\{|\()|\b(interface|type|enum|namespace|declare|implements|abstract|readonly|private|protected|public)\s+\w|\bas\s+(const|\w+)\b|<\w+(,\s*\w+)*>\s*\(|\w!\./;

/** What the models read as one of `from` but has syntax only `to` has is `to`. */
const corrections: readonly { readonly from: readonly ClassificationSpecific[]; readonly to: ClassificationSpecific; readonly syntax: RegExp }[] = [
  // A type annotation, an interface, a type alias, `as const`, `import type`, a member's modifier (10);
  // a declaration typed with a class (`const x: Foo =`), a cast to one (`(e as Error)`) (3 more, issue 31's third pass).
  {
    from: ['js'],
    to: 'ts',
    syntax: /[\w)\]]\??:\s*(string|number|boolean|any|unknown|void|never|Promise<|Array<|Record<)\b|\binterface\s+\w+\s*(<|\{|extends)|\btype\s+\w+\s*(<[^>]*>)?\s*=\s*[^=]|\bas\s+const\b|\bimport\s+type\b|\b(private|public|protected|readonly)\s+\w+\s*[:;=(]|\b(const|let|var)\s+\w+\s*:\s*[A-Z][\w.]*(<[^>\n]*>)?(\[\])?\s*=|\w[)\]]?\s+as\s+[A-Z][\w.]*(<[^>\n]*>)?(\[\])?\s*[);\]]/,
  },
  // Kotlin's `fun`, `val`, a typed `var` (61; 8 read as Scala).
  { from: ['java'], to: 'kt', syntax: /\bfun\s+\w+|\bval\s+\w+|\bvar\s+\w+\s*:/ },
  { from: ['scala'], to: 'kt', syntax: /\bfun\s+[\w.<>]+\(/ },
  // Kotlin's `fun f(` or a `val` declared read as TypeScript, JavaScript or Swift (36).
  { from: ['ts', 'js', 'swift'], to: 'kt', syntax: /\bfun\s+[\w.<>]+\(|^[ \t]*(override\s+|private\s+)?val\s+\w+\s*[:=]/m },
  // Perl's documentation, POD (28).
  { from: ['md'], to: 'pl', syntax: /^=(head\d|item|over|back|cut|pod|begin|end|encoding)\b/m },
  // Perl's `my $x`, `sub f {`, `=~` read as PHP (4).
  { from: ['php'], to: 'pl', syntax: /\bmy\s+[$@%]|\bsub\s+\w+\s*\{|=~/ },
  // A page's tags around its styles (4), or read as XML (11; 1 wrong, Python holding HTML templates).
  { from: ['xml'], to: 'html', syntax: /<(div|p|a|br|span|table|tr|td|ul|li|h[1-6]|body|head|title|img|form|input)\b|<!DOCTYPE html/i },
  { from: ['css'], to: 'html', syntax: /<(!DOCTYPE|html|head|body|style|div|link|meta|script|span|p|a|table)\b|<\/\w+>/i },
  // `std::`, templates, namespaces, access labels, C++'s standard headers, `::`, classes (9); `this->`,
  // C++'s casts, `explicit`, `override`, `noexcept`, `operator==(`, a `const T&` parameter (1 more).
  { from: ['c'], to: 'cpp', syntax: cppOnly },
  // The eleventh pass (docs/languages.md), each out of fold on the tuning packages, nothing broken:
  // GoogleTest's `TEST(Suite, Name) {` and Catch2's `TEST_CASE("…")`, frameworks C has not (1).
  { from: ['c'], to: 'cpp', syntax: /^[ \t]*(TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(\s*\w+\s*,\s*\w+\s*\)\s*\{|^[ \t]*(TEST_CASE|SCENARIO|SECTION)\s*\(\s*"/m },
  // Perl's `my $x`, `foreach my`, a match `=~ m/…/`, `__PACKAGE__`, Moose's `has 'name' => (` (6); Ruby has `=~ /` too, so not from Ruby.
  { from: ['ps1', 'php', 'c', 'cpp', 'sh'], to: 'pl', syntax: /\bmy\s+[$@%]\w|\bforeach\s+my\s|=~\s*(m|s|tr|y)?\/|__PACKAGE__|^[ \t]*has\s+['"]?\w+['"]?\s*=>\s*\(/m },
  // PowerShell's automatic variables, `$env:NAME`, a cmdlet opening a line (`Pop-Location`) (2).
  {
    from: ['sh', 'py', 'pl', 'rb'],
    to: 'ps1',
    syntax: new RegExp(`\\$(LASTEXITCODE|PSScriptRoot|PSVersionTable)\\b|\\$[Ee]nv:\\w|^[ \\t]*${cmdlet}\\b`, 'm'),
  },
  // A Java module's `requires`, `exports`, `opens`, `provides … with` (module-info.java; 3).
  {
    from: ['kt', 'js', 'ts', 'scala', 'cs', 'swift', 'c', 'cpp', 'go', 'rs'],
    to: 'java',
    syntax: /^[ \t]*(requires|exports|opens|provides|uses)\s+(transitive\s+|static\s+)?[\w.]+(\s+(with|to)\s+[\w., ]+)?\s*;\s*(\/\/.*)?$/m,
  },
];

/** A Markdown code fence opening or closing (a text that is one fenced block is a hint, hints.ts). */
const fence = /^ {0,3}(```|~~~)[\w+#.-]*\s*$/m;

/** A YAML line: `key:` or `key: value`, or a list item, not ending as code lines do. */
const yamlLine = /^\s*(- +)?(("[^"]*"|'[^']*'|[\w.$/-]+)\s*:(\s+[^\s].*)?|- +.*)$/;

const isYamlLine = (line: string): boolean => yamlLine.test(line) && !/[;{(,]\s*$/.test(line);

/** Most of the lines are YAML's and none are code's: YAML, whatever the models read. */
function looksLikeYaml(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !/^\s*#/.test(line));
  if (lines.length < 3) return false;
  const yaml = lines.filter(isYamlLine).length;
  return yaml >= lines.length * 0.8 && lines.some((line) => /^\s*[\w.-]+:(\s|$)/.test(line));
}

const commonJs = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w+\s*=|['"]use strict['"]|@(param|type|returns?)\s*\{|\.prototype\.[\w$]+\s*=\s*function\b|\bvar\s+self\s*=\s*this\b/;

/** The models' answer, corrected by the syntax the text has. */
export function correctedBySyntax(text: string, specific: ClassificationSpecific): ClassificationSpecific {
  // CommonJS or JSDoc types and nothing only TypeScript has (a type annotation, an interface…): JavaScript;
  // a method assigned to a prototype or `var self = this`, the idioms before classes (1 more, out of fold).
  if (specific === 'ts' && commonJs.test(text) && !typeScriptOnly.test(text)) return 'js';
  // A code fence in the text: Markdown around code, whatever the code is (8 right on tuning snippets).
  if (fence.test(text)) return 'md';
  // Lines that are all `key: value` or list items: YAML (7 right, 1 wrong: a Markdown list of `key: value`).
  if (looksLikeYaml(text)) return 'yaml';
  // A line or two of `key: value` without a brace or a semicolon is YAML, not CSS's declarations (issue 31, one to three lines).
  if (specific === 'css' && !/[{};]/.test(text) && text.split('\n').every((line) => line.trim() === '' || isYamlLine(line))) return 'yaml';
  return corrections.find(({ from, syntax }) => from.includes(specific) && syntax.test(text))?.to ?? specific;
}
