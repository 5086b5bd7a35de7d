/**
 * The language a snippet's caller or its own first lines state, decided before any model: what a
 * caller knows (the editor's language, a file name, a Markdown fence's info string, a snippet
 * file's scope, a language a client names) is worth more than a guess from a few lines, and so are
 * a shebang, an editor modeline, `<?php` or a whole-text fence.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { hasCppOnlySyntax } from './corrections.ts';
import { specificFromFileName, specificFromLanguageName } from './languages.ts';

export interface LanguageHints {
  /**
   * A language as the caller names it: a VS Code language id (`typescriptreact`), a client's
   * classification (`py`), an agent's `language` (`Python`). `plaintext` says nothing: an
   * untitled editor holding code is plaintext too.
   */
  readonly language?: string | undefined;
  /** A file name or path the text came from (`src/app.py`, `Dockerfile`). */
  readonly fileName?: string | undefined;
  /** A Markdown fence's info string (`python`, `{.rust}`, `ts title="a.ts"`). */
  readonly fence?: string | undefined;
  /** A VS Code snippet file's `scope`: language ids separated by commas; the first known one counts. */
  readonly scope?: string | undefined;
}

const saysNothing = new Set<ClassificationSpecific>(['txt', 'UNKNOWN']);

function named(name: string | undefined): ClassificationSpecific | undefined {
  const specific = specificFromLanguageName(name);
  return specific === undefined || saysNothing.has(specific) ? undefined : specific;
}

/** The language a fence's info string names: its first word, without braces, dot or `language-`. */
export function specificFromFence(info: string | undefined): ClassificationSpecific | undefined {
  const word = (info ?? '').trim().replace(/^\{\s*/, '').split(/[\s,{}]+/)[0] ?? '';
  return named(word.replace(/^\./, '').replace(/^language-/, ''));
}

/**
 * The language a file name names, read with its text where the name cannot tell alone: a `.h`
 * header is C's or C++'s (VS Code opens one as C++, C libraries ship theirs), so one with syntax
 * only C++ has is C++ and any other C.
 */
export function specificFromFile(fileName: string, text: string): ClassificationSpecific | undefined {
  const specific = specificFromFileName(fileName);
  return /\.h$/i.test(fileName.trim()) && hasCppOnlySyntax(text) ? 'cpp' : specific;
}

/** The language the caller's hints state for `text`, strongest first; undefined when they say nothing. */
export function languageFromHints(hints: LanguageHints | undefined, text: string): ClassificationSpecific | undefined {
  if (hints === undefined) return undefined;
  const fromFile = hints.fileName === undefined ? undefined : specificFromFile(hints.fileName, text);
  return (
    named(hints.language) ??
    (fromFile !== undefined && !saysNothing.has(fromFile) ? fromFile : undefined) ??
    specificFromFence(hints.fence) ??
    (hints.scope ?? '').split(',').map((scope) => named(scope)).find((found) => found !== undefined)
  );
}

/** Interpreters a shebang names → language. `env -S node --flag` and versions (`python3.12`) are read through. */
const interpreters: Readonly<Record<string, ClassificationSpecific>> = {
  sh: 'sh', bash: 'sh', zsh: 'sh', ksh: 'sh', dash: 'sh', ash: 'sh', mksh: 'sh', busybox: 'sh',
  python: 'py', pypy: 'py', node: 'js', nodejs: 'js', bun: 'js', deno: 'ts', 'ts-node': 'ts', tsx: 'ts',
  ruby: 'rb', perl: 'pl', php: 'php', lua: 'lua', luajit: 'lua', rscript: 'r', pwsh: 'ps1', powershell: 'ps1',
  runhaskell: 'hs', runghc: 'hs', stack: 'hs', scala: 'scala', kotlin: 'kt', swift: 'swift', julia: 'jl',
  elixir: 'ex', escript: 'erl', groovy: 'groovy',
};

/** The language of a `#!` first line, if it names an interpreter Satchel knows. */
export function specificFromShebang(text: string): ClassificationSpecific | undefined {
  const first = /^#!\s*(\S+)((?:[ \t]+\S+)*)/.exec(text);
  if (first === null) return undefined;
  const words = [first[1]!, ...first[2]!.trim().split(/\s+/)].map((word) => word.split('/').pop()!.toLowerCase());
  // `/usr/bin/env [-S] [VAR=x] python3`: the interpreter is the first word that is not env or an option.
  const program = words.find((word, index) => word !== '' && !(index === 0 && word === 'env') && !word.startsWith('-') && !word.includes('='));
  if (program === undefined) return undefined;
  const bare = program.replace(/[\d.]+$/, '');
  return Object.hasOwn(interpreters, bare) ? interpreters[bare] : undefined;
}

// vim: `vim: set ft=python :`, `vi: filetype=sh`, `ex: syntax=perl`; Emacs: `-*- mode: python -*-`, `-*- python -*-`.
const vimModeline = /(?:^|\s)(?:vim?|ex):.*?\b(?:ft|filetype|syntax)=([\w+#-]+)/;
const emacsModeline = /-\*-\s*(?:.*?\bmode:\s*)?([\w+#-]+)\s*(?:;.*?)?-\*-/i;

/** The language an editor modeline in the first or last five lines names. */
export function specificFromModeline(text: string): ClassificationSpecific | undefined {
  const lines = text.split('\n');
  for (const line of [...lines.slice(0, 5), ...lines.slice(-5)]) {
    if (line.length > 500) continue;
    const vim = vimModeline.exec(line);
    const found = named(vim?.[1]) ?? named(emacsModeline.exec(line)?.[1]?.replace(/-mode$/, '').replace(/^shell-script$/, 'sh'));
    if (found !== undefined) return found;
  }
  return undefined;
}

const wholeFence = /^\s*(`{3,}|~{3,})([^\n`]*)\n([\s\S]*)\n\1\s*$/;

/**
 * What the text itself states: a shebang, a modeline, an opening `<?php`, or one fenced block
 * that is the whole text (its info string). Undefined when it states nothing.
 */
export function languageStatedInText(text: string): ClassificationSpecific | undefined {
  const head = text.trimStart().slice(0, 200);
  if (head.startsWith('#!')) {
    const shebang = specificFromShebang(head);
    if (shebang !== undefined) return shebang;
  }
  if (/^<\?php\b/.test(head)) return 'php';
  const fence = text.length < 200_000 ? wholeFence.exec(text) : null;
  // A fence inside means several blocks: a Markdown document, not one block.
  if (fence !== null && !/^[ \t]*(```|~~~)/m.test(fence[3]!)) {
    const fenced = specificFromFence(fence[2]);
    if (fenced !== undefined) return fenced;
  }
  return specificFromModeline(text);
}
