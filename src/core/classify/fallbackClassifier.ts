/**
 * The classifier used where the token model knows too few of a snippet's tokens (decision.ts), and
 * the rules for prose, one-line commands and SQL statements it runs first: highlight.js restricted to the 27 languages that matter most (its all-languages mode answers
 * "dns" or "nestedtext" for ordinary code), with plain prose recognised as text first.
 */
import hljsCore from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import haskell from 'highlight.js/lib/languages/haskell';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import markdown from 'highlight.js/lib/languages/markdown';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { cmdlet } from './corrections.ts';
import { specificFromHighlightJs } from './languages.ts';

const grammars = {
  bash, c, cpp, csharp, css, dockerfile, go, haskell, java, javascript, json, kotlin, lua, markdown, perl, php,
  powershell, python, r, ruby, rust, scala, sql, swift, typescript, xml, yaml,
};

// An instance of our own, so grammars registered elsewhere in the process never widen the subset.
const hljs = hljsCore.newInstance();
for (const [name, grammar] of Object.entries(grammars)) hljs.registerLanguage(name, grammar);
const subset = Object.keys(grammars);

export interface FallbackGuess {
  readonly specific: ClassificationSpecific;
  readonly confidence: number;
}

const text: FallbackGuess = { specific: 'txt', confidence: 0.5 };

/**
 * Enough of a snippet to recognise its language. highlight.js runs on the caller's thread and takes
 * seconds on tens of kilobytes, so it only sees the start.
 */
const fallbackMaxLength = 3_000;

/** Sentences in a Markdown list (`- item`, `1. item`) are a Markdown document's, not a plain note's. */
const markdownList = /^ {0,3}([-*+]|\d{1,3}[.)]) +\S/m;

/**
 * What the rules that run before any model say of a text's start: an SQL statement in capitals, a
 * short run of shell commands that shows a shell's marks, prose (text, or Markdown when it is a list),
 * then a short run of commands or an SQL statement without those signs; undefined leaves it to the
 * models. The first two come before prose because a command's quoted message (`echo "Not found."`)
 * and a statement's values (`INSERT INTO t VALUES (1, 'Adult');`) read as sentences too.
 */
export function ruledBeforeModels(head: string): FallbackGuess | undefined {
  if (looksLikeSqlInCapitals(head)) return { specific: 'sql', confidence: 0.6 };
  const commandRun = looksLikeCommandLine(head);
  if (commandRun && shellMarks.test(head)) return { specific: 'sh', confidence: 0.6 };
  if (looksLikeProse(head)) {
    // DDL in capitals reads as words (`CREATE USER app IDENTIFIED BY …`), a window of it often
    // opening mid-statement: a line opening with a statement and one ending with `;` is SQL.
    if (sqlStatementLine.test(head) && /;\s*$/m.test(head)) return { specific: 'sql', confidence: 0.6 };
    return { specific: markdownList.test(head) ? 'md' : 'txt', confidence: 0.5 };
  }
  if (commandRun) return { specific: 'sh', confidence: 0.6 };
  if (looksLikeSqlStatement(head)) return { specific: 'sql', confidence: 0.6 };
  return undefined;
}

/** The rules, then highlight.js: the classifier before issue 31 where guesslang was unsure (report.ts scores it). */
export function classifyWithFallback(snippet: string): FallbackGuess {
  const ruled = ruledBeforeModels(headOf(snippet));
  if (ruled !== undefined) return ruled.specific === 'md' ? text : ruled;
  return highlightJsGuess(snippet);
}

/** highlight.js alone, over the snippet's start (the rules already had their say: decision.ts). */
export function highlightJsGuess(snippet: string): FallbackGuess {
  const head = headOf(snippet);
  const result = hljs.highlightAuto(head, subset);
  const name = result.language;
  const relevance = result.relevance;
  if (name === undefined || relevance < 2) return { specific: 'txt', confidence: 0.2 };
  const specific = name === 'xml' ? markupKind(head) : name === 'cpp' ? cFamilyKind(head) : specificFromHighlightJs(name);
  if (specific === undefined) return { specific: 'txt', confidence: 0.2 };
  // highlight.js has no probability; relevance 10 (a clear, multi-keyword match) reads as 0.5.
  return { specific, confidence: relevance / (relevance + 10) };
}

const commands =
  'ls|cd|grep|cat|echo|npm|npx|yarn|pnpm|git|curl|wget|docker|kubectl|mkdir|rm|cp|mv|chmod|chown|pip3?|' +
  'brew|apt|apt-get|ssh|scp|rsync|tar|find|sed|awk|make|cargo|go|node|python3?|systemctl|journalctl|ps|kill|' +
  'touch|ln|source|which|head|tail|xargs|sort|uniq|wc|du|df|tee';
// `export` only as an assignment: `export function f()` is JavaScript, `export PATH=…` is shell. A
// command's name given a value (`df = pd.read_csv(…)`, `df <- read.csv(…)`, `head += 1`) is code.
const commandLine = new RegExp(`^\\s*(\\$\\s+)?(sudo\\s+)?((${commands})(?!\\s*(=(?!=)|<-|[-+*/:]=))(\\s|$)|export\\s+[A-Za-z_][A-Za-z0-9_]*=)`);
/** What a command shows and a sentence does not: quotes, variables, pipes, redirections, flags, paths, a dot inside a word. */
const shellMarks = /["'$|<>;&*~=/\\]|(^|\s)--?\w|\.(?!\s|$)/m;

/**
 * A short run of shell commands (`ls -la | grep x`, `$ npm install`): the subset's grammars score
 * one-liners too weakly to tell bash from PowerShell, but the first word does.
 */
export function looksLikeCommandLine(snippet: string): boolean {
  const lines = snippet.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.length <= 3 && lines.every((line) => commandLine.test(line));
}

/** An SQL verb and its clause in capitals (`INSERT INTO … VALUES`): SQL whatever else the text holds. */
function looksLikeSqlInCapitals(snippet: string): boolean {
  return sqlVerb.test(snippet) && sqlClause.test(snippet);
}

/** A line opening with an SQL statement in capitals, DDL's included (the eleventh pass: 5 right out of fold, none broken). */
const sqlStatementLine =
  /^[ \t]*(CREATE\s+(OR\s+REPLACE\s+)?(TABLE|INDEX|VIEW|UNIQUE\s+INDEX|USER|ROLE|SCHEMA|DATABASE|TABLESPACE|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|TYPE|EXTENSION|POLICY)|GRANT\s[^\n;]*?\s(ON|TO)|ALTER\s+(TABLE|USER|ROLE|SCHEMA|DATABASE|SEQUENCE|VIEW|INDEX)|DROP\s+(TABLE|INDEX|VIEW|USER|ROLE|SCHEMA|DATABASE|SEQUENCE|FUNCTION)|INSERT\s+INTO|DELETE\s+FROM|SELECT\s.*\bFROM)\b/m;
const sqlVerb = /^\s*(SELECT|INSERT\s+(IGNORE\s+)?INTO|UPDATE|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|VIEW|UNIQUE\s+INDEX)|ALTER\s+TABLE|DROP\s+(TABLE|INDEX|VIEW)|WITH\s+\w+\s+AS)\b/;
const sqlClause = /\b(FROM|SET|VALUES|TABLE|INDEX|VIEW|AS)\b/;

/**
 * A statement that opens with an SQL verb and has its clause (`SELECT … FROM`, `UPDATE … SET`).
 * Keywords count in upper case, or in lower case when a `;`, `*` or `=` shows it is not a sentence.
 */
export function looksLikeSqlStatement(snippet: string): boolean {
  const upper = snippet.toUpperCase();
  const shouting = looksLikeSqlInCapitals(snippet);
  const terminated = /^\s*SELECT\b[^;]*;\s*$/i.test(snippet);
  return shouting || terminated || (/[;*=]/.test(snippet) && sqlVerb.test(upper) && sqlClause.test(upper));
}

function headOf(snippet: string): string {
  if (snippet.length <= fallbackMaxLength) return snippet;
  const cut = snippet.lastIndexOf('\n', fallbackMaxLength);
  return snippet.slice(0, cut > 0 ? cut : fallbackMaxLength);
}

const cppOnly = /::|\btemplate\s*<|\bclass\s+\w|\bnamespace\b|#include\s*<\w+>|\bnew\s+\w|\bnullptr\b|\bauto\b|\b(public|private|protected):/;

/** highlight.js's C++ grammar also claims plain C; without a C++-only construct it is C. */
export function cFamilyKind(snippet: string): ClassificationSpecific {
  return cppOnly.test(snippet) ? 'cpp' : 'c';
}

const htmlTag = /<(!doctype\s+html|html|head|body|div|span|p|a|ul|ol|li|script|style|table|tr|td|form|input|button|img|h[1-6]|nav|section|header|footer|main|label|select)[\s>/]/i;

/** highlight.js reads HTML as its `xml` grammar; the tags tell the two apart. */
export function markupKind(snippet: string): ClassificationSpecific {
  return htmlTag.test(snippet) ? 'html' : 'xml';
}

// Characters that ordinary sentences rarely contain, and command-line flags.
const codeMarks = /[{}[\];=<>$\\|&^~`#*_/@+]|(^|\s)--?[a-z]/gi;
const words = /[\p{L}'’]+/gu;
const codeKeyword =
  'import|from|def|class|let|val|var|fn|func|function|return|package|use|using|namespace|module|data|type|local|end|include|require|requires|' +
  'alias|autoload|case|else|elif|elsif|echo|say|puts|print|printf|throw|raise|yield|await|const|static|public|private|protected|internal|global|' +
  'struct|enum|interface|impl|pub|break|continue|try|except|finally|done|fi';
/** A line that opens with a keyword, a cmdlet or `key` (a YAML key or list item's) followed by `:`. */
const codeLineWithKey = (key: string): RegExp => new RegExp(`^\\s*((${codeKeyword})\\b|${cmdlet}\\b|-?\\s*${key}:(\\s|$))`);
const codeLineStart = codeLineWithKey('[\\w.-]+');
/** A line alone is code only with its key in lower case (`runs-on: ubuntu-latest`; `Note: …` is a sentence). */
const codeLineAlone = codeLineWithKey('[a-z][\\w.-]*');

/**
 * Sentences rather than code or markup: mostly words, almost no code punctuation, and either
 * several lines or sentence punctuation. Markdown keeps its markers, so it is not prose here.
 */
export function looksLikeProse(snippet: string): boolean {
  const trimmed = snippet.trim();
  const wordList = trimmed.match(words) ?? [];
  if (wordList.length < 4) return false;
  const nonSpace = trimmed.replace(/\s/g, '').length;
  const letters = wordList.reduce((sum, word) => sum + word.length, 0);
  const marks = (trimmed.match(codeMarks) ?? []).length;
  if (letters / nonSpace < 0.8 || marks > Math.max(1, nonSpace / 200)) return false;
  // Identifiers like fooBar or snake_case, and calls like f(x), are code even without braces; so is a
  // docstring's closing `"""` (the sentences are a Python comment).
  if (/\b[a-z]+[A-Z]\w*\b|\w\(|\)\s*$|^[ \t]*("""|''')/m.test(trimmed)) return false;
  // Lines of `import Data.List`, `local x`, `key: value`: code and YAML read as words too.
  const lines = trimmed.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 1 && codeLineAlone.test(lines[0]!)) return false;
  const codeLines = lines.filter((line) => codeLineStart.test(line)).length;
  if (lines.length >= 2 && codeLines >= lines.length / 2) return false;
  return /[.!?:,]/.test(trimmed) || wordList.length >= 12;
}
