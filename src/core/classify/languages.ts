/**
 * The languages Satchel knows, in the client's ClassificationSpecificEnum vocabulary: what the
 * detectors' answers map to, what a file name implies, and which generic class (code, text,
 * image…) a specific value belongs to.
 */
import type { ClassificationGeneric, ClassificationSpecific } from '../piecesTypes.ts';
import { CLASSIFICATION_SPECIFIC_VALUES } from '../assets/classificationValues.ts';

export interface LanguageInfo {
  /** The value stored in a format's classification. */
  readonly specific: ClassificationSpecific;
  readonly name: string;
  /** The VS Code language id, for opening a snippet in an editor. */
  readonly vscodeId: string;
  /** File extensions (lower case, without the dot) that mean this language, the specific value aside. */
  readonly extensions: readonly string[];
}

function language(specific: ClassificationSpecific, name: string, vscodeId: string, extensions: readonly string[] = []): LanguageInfo {
  return { specific, name, vscodeId, extensions };
}

/** Every language the classifier can answer, plus a few common ones only a file name reveals. */
export const supportedLanguages: readonly LanguageInfo[] = [
  language('ts', 'TypeScript', 'typescript', ['mts', 'cts']),
  language('tsx', 'TypeScript React', 'typescriptreact'),
  language('js', 'JavaScript', 'javascript', ['cjs', 'mjs']),
  language('jsx', 'JavaScript React', 'javascriptreact'),
  language('py', 'Python', 'python', ['py3', 'pyw', 'pyi']),
  language('java', 'Java', 'java'),
  language('go', 'Go', 'go'),
  language('rs', 'Rust', 'rust'),
  language('c', 'C', 'c', ['h']),
  language('cpp', 'C++', 'cpp', ['cc', 'cp', 'cxx', 'hh', 'hpp', 'hxx', 'inl', 'ipp', 'ixx', 'cppm', 'c++', 'h++']),
  language('cs', 'C#', 'csharp', ['csx']),
  language('rb', 'Ruby', 'ruby', ['rake', 'gemspec']),
  language('php', 'PHP', 'php', ['phtml', 'php3', 'php4', 'php5', 'php7', 'php8']),
  language('swift', 'Swift', 'swift'),
  language('kt', 'Kotlin', 'kotlin', ['kts']),
  language('sh', 'Shell', 'shellscript', ['bash', 'zsh', 'ash', 'ksh', 'bashrc', 'zshrc']),
  language('sql', 'SQL', 'sql', ['ddl', 'dml', 'psql', 'pgsql']),
  language('html', 'HTML', 'html', ['htm', 'shtml', 'xhtml']),
  language('xml', 'XML', 'xml', ['xsd', 'xsl', 'xslt', 'svg', 'plist', 'csproj', 'fsproj', 'vbproj']),
  language('css', 'CSS', 'css'),
  language('scss', 'SCSS', 'scss'),
  language('md', 'Markdown', 'markdown', ['markdown', 'mdown', 'mdwn', 'markdn', 'mdx']),
  language('lua', 'Lua', 'lua', ['luau']),
  language('hs', 'Haskell', 'haskell', ['lhs']),
  language('scala', 'Scala', 'scala', ['sc', 'sbt']),
  language('ps1', 'PowerShell', 'powershell', ['psm1', 'psd1']),
  language('r', 'R', 'r'),
  language('pl', 'Perl', 'perl', ['pm', 'pod', 't']),
  language('bat', 'Batch', 'bat', ['cmd']),
  language('coffee', 'CoffeeScript', 'coffeescript'),
  language('erl', 'Erlang', 'erlang', ['hrl', 'escript']),
  language('matlab', 'MATLAB', 'matlab'),
  language('mm', 'Objective-C', 'objective-c', ['m']),
  language('tex', 'LaTeX', 'latex', ['ltx', 'sty', 'cls']),
  language('yaml', 'YAML', 'yaml', ['yml']),
  language('json', 'JSON', 'json', ['jsonc', 'json5', 'ipynb', 'gltf']),
  language('dockerfile', 'Dockerfile', 'dockerfile', ['containerfile']),
  language('toml', 'TOML', 'toml', ['tml']),
  language('dart', 'Dart', 'dart'),
  language('groovy', 'Groovy', 'groovy', ['gradle']),
  language('ini', 'INI', 'ini', ['cfg', 'conf', 'properties']),
  language('hljs-makefile', 'Makefile', 'makefile', ['mk', 'mak']),
  language('hljs-cmake', 'CMake', 'cmake', ['cmake']),
  language('jl', 'Julia', 'julia'),
  language('ex', 'Elixir', 'elixir', ['exs']),
  language('clj', 'Clojure', 'clojure', ['cljs', 'cljc', 'edn']),
  language('ml', 'OCaml', 'ocaml', ['mli']),
  language('hljs-x86asm', 'Assembly', 'asm', ['asm', 's']),
  language('csv', 'CSV', 'csv', ['tsv']),
  language('hljs-prolog', 'Prolog', 'prolog', ['pro']),
  language('f90', 'Fortran', 'fortran', ['f', 'for', 'f95', 'f03', 'f08', 'f18']),
  language('vba', 'VBA', 'vb', ['bas', 'vbs']),
  language('pas', 'Pascal', 'pascal', ['pp', 'dpr']),
  language('lisp', 'Lisp', 'lisp', ['lsp', 'el']),
  language('hljs-verilog', 'Verilog', 'verilog', ['v', 'sv', 'vh']),
  language('vue', 'Vue', 'vue'),
  language('svelte', 'Svelte', 'svelte'),
  language('sol', 'Solidity', 'solidity'),
  language('zig', 'Zig', 'zig'),
  language('elm', 'Elm', 'elm'),
  language('fs', 'F#', 'fsharp', ['fsi', 'fsx']),
  language('tf', 'Terraform', 'terraform', ['tfvars', 'hcl']),
  language('txt', 'Plain text', 'plaintext', ['text', 'log']),
];

/** guesslang (vscode-languagedetection) ids; `dm` and `cbl` have no client value and are left out. */
const fromGuesslang: Readonly<Record<string, ClassificationSpecific>> = {
  ts: 'ts', js: 'js', py: 'py', java: 'java', go: 'go', rs: 'rs', c: 'c', cpp: 'cpp', cs: 'cs', rb: 'rb',
  php: 'php', swift: 'swift', kt: 'kt', sh: 'sh', sql: 'sql', html: 'html', xml: 'xml', css: 'css', md: 'md',
  lua: 'lua', hs: 'hs', scala: 'scala', ps1: 'ps1', r: 'r', pm: 'pl', bat: 'bat', coffee: 'coffee', erl: 'erl',
  matlab: 'matlab', mm: 'mm', tex: 'tex', yaml: 'yaml', json: 'json', dockerfile: 'dockerfile', toml: 'toml',
  dart: 'dart', groovy: 'groovy', ini: 'ini', makefile: 'hljs-makefile', cmake: 'hljs-cmake', jl: 'jl',
  ex: 'ex', clj: 'clj', ml: 'ml', asm: 'hljs-x86asm', csv: 'csv', prolog: 'hljs-prolog', f90: 'f90',
  vba: 'vba', pas: 'pas', lisp: 'lisp', v: 'hljs-verilog',
};

export function specificFromGuesslang(id: string): ClassificationSpecific | undefined {
  return Object.hasOwn(fromGuesslang, id) ? fromGuesslang[id] : undefined;
}

/** highlight.js language names of the fallback subset. `xml` is decided by the caller (HTML or XML). */
const fromHighlightJs: Readonly<Record<string, ClassificationSpecific>> = {
  typescript: 'ts', javascript: 'js', python: 'py', java: 'java', go: 'go', rust: 'rs', c: 'c', cpp: 'cpp',
  csharp: 'cs', ruby: 'rb', php: 'php', 'php-template': 'php', swift: 'swift', kotlin: 'kt', bash: 'sh',
  shell: 'sh', sql: 'sql', xml: 'xml', css: 'css', markdown: 'md', lua: 'lua', haskell: 'hs', scala: 'scala',
  powershell: 'ps1', r: 'r', yaml: 'yaml', json: 'json', dockerfile: 'dockerfile', perl: 'pl',
};

export function specificFromHighlightJs(name: string): ClassificationSpecific | undefined {
  return Object.hasOwn(fromHighlightJs, name) ? fromHighlightJs[name] : undefined;
}

// Non-code values of the client's enum (Markdown and CSV are text). Everything else it lists is a
// language (CODE).
const images = 'gif ico jpe jpeg jpg jpgm png tif tiff webp bmp svgz ai eps';
const videos = 'jpgv mp4 ogv qt webm mp2';
const files =
  'doc docm docx exe mp2a mp3 mp4a oga ogg ogx ppt pptx pptm wav weba xla xlam xlc xlm xls xlsb xlsm xlsx ' +
  'xlt xltm xltx pdf rpm zip woff woff2 bin eot gz jar mpkg dmg wasm pyc class';
const texts = 'txt text log md mdown mdwn markdown markdn rtf rtx csv list';
const references =
  'uri uris urls uniform_resource_locator custom_url_scheme unix_file_path windows_file_path uniform_resource_identifier';

/**
 * The lookup tables below are built on first use, not as the module loads: the extension's bundle
 * holds this module, and VS Code counts loading that bundle as Satchel's activation (docs/performance.md).
 */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

const generics = once(() => {
  const byValue = new Map<string, ClassificationGeneric>();
  for (const [generic, values] of [
    ['IMAGE', images],
    ['VIDEO', videos],
    ['FILE', files],
    ['TEXT', texts],
    ['EXTERNAL_RESOURCE_REFERENCE', references],
  ] as const) {
    for (const value of values.split(' ')) byValue.set(value, generic);
  }
  return byValue;
});

export interface ClassificationPair {
  readonly generic: ClassificationGeneric;
  readonly specific: ClassificationSpecific;
}

/** The generic class of a specific value: a language is CODE, a picture IMAGE, a binary document FILE… */
export function classificationOf(specific: ClassificationSpecific): ClassificationPair {
  if (specific === 'UNKNOWN') return { generic: 'UNKNOWN', specific };
  return { generic: genericOf(specific), specific };
}

export function genericOf(specific: ClassificationSpecific): ClassificationGeneric {
  if (specific === 'UNKNOWN') return 'UNKNOWN';
  return generics().get(specific) ?? 'CODE';
}

/**
 * Lower-cased file name or extension → specific value. The enum's own spelling wins over a language
 * alias. `longest`: the longest name or extension (or run of them, `pyx.in`) it knows.
 */
const fileNames = once(() => {
  const byFileName = new Map<string, ClassificationSpecific>();
  for (const info of supportedLanguages) {
    for (const extension of info.extensions) byFileName.set(extension, info.specific);
  }
  // The enum values that are a file extension or a file name themselves: all but UNKNOWN, the
  // highlight.js grammar names and the snake_case kinds of reference (uniform_resource_locator…).
  for (const value of CLASSIFICATION_SPECIFIC_VALUES) {
    if (value !== 'UNKNOWN' && !value.startsWith('hljs-') && !/^[a-z]+(_[a-z]+)+$/.test(value)) byFileName.set(value.toLowerCase(), value as ClassificationSpecific);
  }
  // Conventional file names with no extension.
  byFileName.set('dockerfile', 'dockerfile');
  byFileName.set('containerfile', 'dockerfile');
  byFileName.set('makefile', 'hljs-makefile');
  byFileName.set('gnumakefile', 'hljs-makefile');
  byFileName.set('cmakelists.txt', 'hljs-cmake');
  byFileName.set('jenkinsfile', 'groovy');
  return { byFileName, longest: Math.max(...[...byFileName.keys()].map((key) => key.length)) };
});

/**
 * The specific value a file name implies: the whole name first (`Dockerfile`, `Gemfile`,
 * `CMakeLists.txt`, `.zshrc`), then its extensions from the longest (`pyx.in`) to the last one.
 * Undefined when nothing is known, so the caller classifies the content instead.
 */
export function specificFromFileName(fileName: string): ClassificationSpecific | undefined {
  const base = (fileName.split(/[\\/]/).pop() ?? '').toLowerCase();
  if (base === '') return undefined;
  const { byFileName, longest } = fileNames();
  const whole = byFileName.get(base);
  if (whole !== undefined) return whole;
  if (base.startsWith('dockerfile.') || base.endsWith('.dockerfile')) return 'dockerfile';
  // Only the name's last `longest` characters can hold a known extension: looking up every suffix
  // of a name like `a.a.a.…` would cost the square of its length.
  for (let dot = base.indexOf('.', Math.max(0, base.length - longest - 1)); dot !== -1; dot = base.indexOf('.', dot + 1)) {
    const found = byFileName.get(base.slice(dot + 1));
    if (found !== undefined) return found;
  }
  return undefined;
}

const infoBySpecific = once(() => {
  const bySpecific = new Map<string, LanguageInfo>(supportedLanguages.map((info) => [info.specific, info]));
  for (const info of supportedLanguages) {
    for (const extension of info.extensions) {
      if (!bySpecific.has(extension)) bySpecific.set(extension, info);
    }
  }
  return bySpecific;
});

/** The language a specific value belongs to (`hpp` → C++, `yml` → YAML), if it is one Satchel lists. */
export function languageOf(specific: ClassificationSpecific): LanguageInfo | undefined {
  return infoBySpecific().get(specific);
}

const bySpokenName = once(() => {
  const byName = new Map<string, ClassificationSpecific>();
  for (const info of supportedLanguages) {
    for (const key of [info.specific, info.name, info.vscodeId, ...info.extensions]) {
      if (!byName.has(key.toLowerCase())) byName.set(key.toLowerCase(), info.specific);
    }
  }
  return byName;
});

/** Names other tools use (Ace/massCode modes, VS Code ids, linguist names) that no language's id, name or extensions reach. */
const ALIASES: Readonly<Record<string, ClassificationSpecific>> = {
  c_cpp: 'cpp',
  golang: 'go',
  plain_text: 'txt',
  plaintext: 'txt',
  text: 'txt',
  shell: 'sh',
  bash: 'sh',
  zsh: 'sh',
  console: 'sh',
  objectivec: 'mm',
  'objective-c': 'mm',
  jsonc: 'json',
  json5: 'json',
  makefile: 'hljs-makefile',
  docker: 'dockerfile',
  vb: 'vba',
  'c#': 'cs',
  'f#': 'fs',
};

/**
 * The specific value a language as a person or an agent writes it means (`TypeScript`, `python`,
 * `c++`, `ts`, `.py`), or undefined when Satchel knows no such language.
 */
export function specificFromLanguageName(name: string | undefined | null): ClassificationSpecific | undefined {
  if (!name) return undefined;
  const key = name.trim().toLowerCase().replace(/^\./, '');
  if (key === '') return undefined;
  // Satchel's own languages first: `bash` means the `sh` the classifier stores, though the enum has both.
  const spoken = bySpokenName().get(key);
  if (spoken !== undefined) return spoken;
  if (Object.hasOwn(ALIASES, key)) return ALIASES[key];
  if (CLASSIFICATION_SPECIFIC_VALUES.includes(key)) return key as ClassificationSpecific;
  return specificFromHighlightJs(key);
}
