/** Names and file extensions for the languages (ClassificationSpecific values) assets carry. */
const NAMES: Readonly<Record<string, string>> = {
  ts: 'TypeScript', tsx: 'TypeScript React', js: 'JavaScript', jsx: 'JavaScript React', py: 'Python', rs: 'Rust',
  go: 'Go', java: 'Java', kt: 'Kotlin', swift: 'Swift', c: 'C', cpp: 'C++', cs: 'C#', rb: 'Ruby', php: 'PHP',
  sh: 'Shell', bat: 'Batch', ps1: 'PowerShell', sql: 'SQL', json: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML',
  xml: 'XML', html: 'HTML', css: 'CSS', scss: 'SCSS', less: 'Less', md: 'Markdown', txt: 'Plain Text', dart: 'Dart',
  lua: 'Lua', r: 'R', scala: 'Scala', hs: 'Haskell', erl: 'Erlang', ex: 'Elixir', clj: 'Clojure', coffee: 'CoffeeScript',
  m: 'Objective-C', pl: 'Perl', tex: 'TeX', vue: 'Vue', dockerfile: 'Dockerfile', tf: 'Terraform', ini: 'INI',
};

/** VS Code language ids → the ClassificationSpecific value the server uses. */
const FROM_VSCODE: Readonly<Record<string, string>> = {
  typescript: 'ts', typescriptreact: 'tsx', javascript: 'js', javascriptreact: 'jsx', python: 'py', rust: 'rs',
  go: 'go', java: 'java', kotlin: 'kt', swift: 'swift', c: 'c', cpp: 'cpp', csharp: 'cs', ruby: 'rb', php: 'php',
  shellscript: 'sh', bat: 'bat', powershell: 'ps1', sql: 'sql', json: 'json', jsonc: 'json', yaml: 'yaml', toml: 'toml',
  xml: 'xml', html: 'html', css: 'css', scss: 'scss', less: 'less', markdown: 'md', plaintext: 'txt', dart: 'dart',
  lua: 'lua', r: 'r', scala: 'scala', haskell: 'hs', erlang: 'erl', elixir: 'ex', clojure: 'clj', perl: 'pl',
  latex: 'tex', vue: 'vue', dockerfile: 'dockerfile', terraform: 'tf', ini: 'ini', 'objective-c': 'm',
};

export function languageName(specific: string | undefined): string {
  if (!specific) return 'Unclassified';
  return NAMES[specific] ?? specific.toUpperCase();
}

export function fromVscodeLanguage(languageId: string): string | undefined {
  return FROM_VSCODE[languageId];
}

/** All languages offered when reclassifying, as [specific, name]. */
export function knownLanguages(): [string, string][] {
  return Object.entries(NAMES);
}

/** A file name whose extension lets VS Code pick the language and its icon. */
export function fileNameFor(name: string, specific: string | undefined): string {
  const safe = name.replace(/[\\/:*?"<>|\n\r]+/g, ' ').trim().slice(0, 80) || 'asset';
  if (!specific || specific === 'txt') return `${safe}.txt`;
  return specific === 'dockerfile' ? `${safe}.Dockerfile` : `${safe}.${specific}`;
}

export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'just now';
  const units: [number, string][] = [[60, 'min'], [3600, 'h'], [86400, 'd'], [604800, 'w'], [2_592_000, 'mo'], [31_536_000, 'y']];
  let label = '';
  for (const [size, unit] of units) if (seconds >= size) label = `${Math.floor(seconds / size)} ${unit} ago`;
  return label;
}
