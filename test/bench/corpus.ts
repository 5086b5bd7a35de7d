/**
 * The benchmark corpus: deterministic synthetic snippets (16 languages, verb × noun × qualifier
 * identifiers, names, 0–5 tags, bodies of 200 B – 5 KB) plus planted targets whose intended search
 * query is known. Asset i depends only on (seed, i), so the 1k corpus is the 10k corpus's prefix
 * apart from where the planted targets land.
 */

export interface BenchAsset {
  /** Stable key in the generated corpus; the server assigns its own id on create. */
  readonly key: string;
  readonly name: string;
  readonly tags: readonly string[];
  /** A ClassificationSpecificEnum value. */
  readonly language: string;
  readonly code: string;
}

export interface PlantedQuery {
  readonly query: string;
  /** Key of the asset the query means. */
  readonly target: string;
  readonly kind: 'typo' | 'partial' | 'exact' | 'intent';
}

export interface Corpus {
  readonly assets: readonly BenchAsset[];
  readonly queries: readonly PlantedQuery[];
  /** Size of the corpus as JSON (name, tags, language and code of every asset). */
  readonly jsonBytes: number;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for item `index` of stream `seed`, independent of every other item. */
export function rngFor(seed: number, index: number): () => number {
  return mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

// Filler vocabulary. The words of the planted queries are left out of names and tags on purpose
// (they may appear in code bodies, as distractors), so each planted target stays the one intended.
const verbs = ['get', 'set', 'load', 'save', 'parse', 'build', 'render', 'decode', 'encode', 'merge', 'split', 'sort',
  'filter', 'resolve', 'compute', 'update', 'create', 'remove', 'find', 'lookup', 'sync', 'dispatch', 'collect',
  'normalize', 'validate', 'format', 'combine', 'scan', 'register', 'schedule', 'publish', 'convert', 'apply', 'match'];
const nouns = ['user', 'order', 'invoice', 'config', 'column', 'row', 'client', 'session', 'country', 'product',
  'account', 'payload', 'message', 'event', 'record', 'report', 'schema', 'metric', 'ticket', 'profile', 'widget',
  'route', 'node', 'tree', 'graph', 'matrix', 'vector', 'channel', 'bucket', 'label', 'locale', 'document', 'snapshot'];
const qualifiers = ['ById', 'List', 'Map', 'Stream', 'Batch', 'Async', 'Safe', 'Now', 'Delta', 'Index', 'Table',
  'Range', 'Set', 'Queue', 'Pool', 'Cursor', 'Entry', 'Group', 'Page', 'Summary'];
const adverbs = ['concurrently', 'lazily', 'in place', 'incrementally', 'with retries', 'by key', 'in bulk',
  'for tests', 'from disk', 'over HTTP', 'per tenant', 'with a timeout'];
const topics = ['async', 'http', 'parsing', 'testing', 'cli', 'io', 'math', 'strings', 'dates', 'collections',
  'networking', 'logging', 'config', 'ui', 'database', 'security', 'perf', 'devops', 'algorithms', 'utils'];

interface Language {
  readonly id: string;
  readonly label: string;
  readonly libs: readonly string[];
  /** One block of code (a function, a query, a config section) from the given identifiers. */
  readonly block: (rng: Rng, w: Words) => string;
}

interface Words {
  readonly verb: string;
  readonly noun: string;
  readonly qualifier: string;
  readonly camel: string;
  readonly snake: string;
  readonly pascal: string;
  readonly lib: string;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const snakeOf = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function words(rng: Rng, libs: readonly string[]): Words {
  const verb = pick(rng, verbs);
  const noun = pick(rng, nouns);
  const qualifier = pick(rng, qualifiers);
  const camel = `${verb}${cap(noun)}${qualifier}`;
  return { verb, noun, qualifier, camel, snake: snakeOf(camel), pascal: cap(camel), lib: pick(rng, libs) };
}

const literal = (rng: Rng, w: Words): string =>
  pick(rng, [`${w.noun} not found`, `invalid ${w.noun}`, `/api/${w.noun}s`, `${w.verb} failed`, `${w.noun}_${int(rng, 1, 99)}`]);

// Fragments that resemble planted targets' topics; they make the search have to rank, not just match.
const jsDistractors = ['debounce(handler, 250);', 'fetch(url).then((r) => r.json());', 'useEffect(() => { refresh(); }, []);',
  'await redis.get(key);', 'const parts = items.flat();', 'localStorage.getItem(key);', 'jwt.sign(claims, secret);'];

const languages: readonly Language[] = [
  {
    id: 'ts', label: 'TypeScript', libs: ['axios', 'zod', 'rxjs', 'prisma', 'express', 'lodash'],
    block: (r, w) => `// ${cap(w.verb)} the ${w.noun} and keep the ${w.qualifier.toLowerCase()}.\nexport async function ${w.camel}(${w.noun}Id: string, options: ${cap(w.noun)}Options = {}): Promise<${cap(w.noun)}[]> {\n  const ${w.noun} = await ${w.lib}.${w.verb}(${w.noun}Id, options);\n  if (!${w.noun}) throw new Error('${literal(r, w)}');\n  ${r() < 0.2 ? pick(r, jsDistractors) : `log.debug('${w.verb}', ${w.noun}Id);`}\n  return ${w.noun}.items.filter((item) => item.${pick(r, nouns)} !== undefined);\n}\n`,
  },
  {
    id: 'js', label: 'JavaScript', libs: ['axios', 'react', 'lodash', 'moment', 'express', 'knex'],
    block: (r, w) => `function ${w.camel}(${w.noun}, cb) {\n  const url = '${literal(r, w)}';\n  ${r() < 0.3 ? pick(r, jsDistractors) : `${w.lib}.${w.verb}(url, ${w.noun});`}\n  for (const key of Object.keys(${w.noun})) {\n    if (${w.noun}[key] == null) delete ${w.noun}[key];\n  }\n  return cb(null, ${w.noun});\n}\n`,
  },
  {
    id: 'py', label: 'Python', libs: ['pandas', 'numpy', 'requests', 'django', 'flask', 'sqlalchemy'],
    block: (r, w) => `def ${w.snake}(${w.noun}_id, *, timeout=${int(r, 1, 30)}):\n    """${cap(w.verb)} a ${w.noun} ${pick(r, adverbs)}."""\n    ${w.noun} = ${w.lib}.${w.verb}(${w.noun}_id, timeout=timeout)\n    if not ${w.noun}:\n        raise ValueError("${literal(r, w)}")\n    return [x.${pick(r, nouns)} for x in ${w.noun} if x is not None]\n`,
  },
  {
    id: 'go', label: 'Go', libs: ['http', 'json', 'sql', 'sync', 'context', 'strings'],
    block: (r, w) => `// ${w.pascal} ${w.verb}s a ${w.noun}.\nfunc ${w.pascal}(ctx context.Context, id string) (*${cap(w.noun)}, error) {\n\t${w.noun}, err := ${w.lib}.${cap(w.verb)}(ctx, id)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf("${literal(r, w)}: %w", err)\n\t}\n\treturn ${w.noun}, nil\n}\n`,
  },
  {
    id: 'rs', label: 'Rust', libs: ['serde', 'tokio', 'reqwest', 'anyhow', 'regex', 'chrono'],
    block: (r, w) => `/// ${cap(w.verb)} the ${w.noun} ${pick(r, adverbs)}.\npub fn ${w.snake}(input: &str) -> Result<${cap(w.noun)}, Error> {\n    let ${w.noun} = ${w.lib}::${w.verb}(input).map_err(|e| Error::new("${literal(r, w)}", e))?;\n    let total: usize = ${w.noun}.items.iter().map(|x| x.len()).sum();\n    Ok(${cap(w.noun)} { total, ..${w.noun} })\n}\n`,
  },
  {
    id: 'java', label: 'Java', libs: ['Jackson', 'Spring', 'Guava', 'Hibernate', 'Lombok'],
    block: (r, w) => `public ${cap(w.noun)} ${w.camel}(String id) throws IOException {\n    ${cap(w.noun)} ${w.noun} = repository.${w.verb}(id);\n    if (${w.noun} == null) {\n        throw new IllegalStateException("${literal(r, w)}");\n    }\n    return ${w.noun}.with${w.qualifier}(${int(r, 0, 500)});\n}\n`,
  },
  {
    id: 'cs', label: 'C#', libs: ['Linq', 'EntityFramework', 'Newtonsoft', 'Dapper'],
    block: (r, w) => `public async Task<${cap(w.noun)}> ${w.pascal}Async(Guid id, CancellationToken ct)\n{\n    var ${w.noun} = await _db.${cap(w.noun)}s.FirstOrDefaultAsync(x => x.Id == id, ct);\n    if (${w.noun} is null) throw new KeyNotFoundException("${literal(r, w)}");\n    return ${w.noun};\n}\n`,
  },
  {
    id: 'rb', label: 'Ruby', libs: ['rails', 'sidekiq', 'rspec', 'nokogiri'],
    block: (r, w) => `def ${w.snake}(${w.noun}_id)\n  ${w.noun} = ${cap(w.noun)}.find_by(id: ${w.noun}_id)\n  raise ArgumentError, "${literal(r, w)}" if ${w.noun}.nil?\n  ${w.noun}.${pick(r, verbs)}!\nend\n`,
  },
  {
    id: 'php', label: 'PHP', libs: ['Laravel', 'Symfony', 'Guzzle', 'Doctrine'],
    block: (r, w) => `public function ${w.camel}(int $id): ?${cap(w.noun)}\n{\n    $${w.noun} = $this->${w.noun}Repository->${w.verb}($id);\n    if ($${w.noun} === null) {\n        throw new \\RuntimeException('${literal(r, w)}');\n    }\n    return $${w.noun};\n}\n`,
  },
  {
    id: 'sh', label: 'Shell', libs: ['curl', 'jq', 'awk', 'sed', 'rsync'],
    block: (r, w) => `# ${w.verb} ${w.noun}s ${pick(r, adverbs)}\n${w.snake}() {\n  local target="\${1:-/var/lib/${w.noun}}"\n  ${w.lib} ${pick(r, ['-s', '-r', '-n', '-q'])} "$target" | grep -v '^#' > "/tmp/${w.noun}.${int(r, 1, 9)}"\n  echo "${literal(r, w)}" >&2\n}\n`,
  },
  {
    id: 'sql', label: 'SQL', libs: ['postgres', 'mysql', 'sqlite'],
    block: (r, w) => `-- ${w.verb} ${w.noun}s ${pick(r, adverbs)}\nSELECT ${w.noun}.id, ${w.noun}.${pick(r, nouns)}_id, COUNT(*) AS total\nFROM ${w.noun}s AS ${w.noun}\nJOIN ${pick(r, nouns)}s p ON p.id = ${w.noun}.${pick(r, nouns)}_id\nWHERE ${w.noun}.created_at > NOW() - INTERVAL '${int(r, 1, 90)} days'\nGROUP BY ${w.noun}.id\nORDER BY total DESC\nLIMIT ${int(r, 5, 100)};\n`,
  },
  {
    id: 'yaml', label: 'YAML', libs: ['kubernetes', 'github-actions', 'compose', 'ansible'],
    block: (r, w) => `${w.snake}:\n  name: ${w.verb}-${w.noun}\n  image: registry.local/${w.noun}:${int(r, 1, 9)}.${int(r, 0, 20)}\n  env:\n    - name: ${w.noun.toUpperCase()}_${w.qualifier.toUpperCase()}\n      value: "${literal(r, w)}"\n  replicas: ${int(r, 1, 6)}\n`,
  },
  {
    id: 'cpp', label: 'C++', libs: ['std', 'boost', 'fmt', 'absl'],
    block: (r, w) => `std::vector<${cap(w.noun)}> ${w.camel}(const std::string& id) {\n    std::vector<${cap(w.noun)}> out;\n    for (const auto& item : ${w.lib}::${w.verb}(id)) {\n        if (item.valid()) out.push_back(item);\n    }\n    if (out.empty()) throw std::runtime_error("${literal(r, w)}");\n    return out;\n}\n`,
  },
  {
    id: 'c', label: 'C', libs: ['stdio', 'stdlib', 'string', 'pthread'],
    block: (r, w) => `int ${w.snake}(struct ${w.noun} *${w.noun}, size_t len) {\n    if (${w.noun} == NULL) {\n        fprintf(stderr, "${literal(r, w)}\\n");\n        return -1;\n    }\n    for (size_t i = 0; i < len; i++) ${w.noun}[i].${pick(r, nouns)} = ${int(r, 0, 255)};\n    return 0;\n}\n`,
  },
  {
    id: 'kt', label: 'Kotlin', libs: ['ktor', 'coroutines', 'exposed', 'koin'],
    block: (r, w) => `suspend fun ${w.camel}(id: String): ${cap(w.noun)} = withContext(Dispatchers.IO) {\n    val ${w.noun} = ${w.lib}.${w.verb}(id) ?: error("${literal(r, w)}")\n    ${w.noun}.copy(${pick(r, nouns)} = ${int(r, 0, 99)})\n}\n`,
  },
  {
    id: 'swift', label: 'Swift', libs: ['Foundation', 'SwiftUI', 'Combine', 'Alamofire'],
    block: (r, w) => `func ${w.camel}(_ id: UUID) async throws -> ${cap(w.noun)} {\n    guard let ${w.noun} = try await store.${w.verb}(id) else {\n        throw ${cap(w.noun)}Error.missing("${literal(r, w)}")\n    }\n    return ${w.noun}\n}\n`,
  },
];

/** A body size between 200 B and 5 KB, log-uniform (median about 1 KB) like saved snippets. */
function bodySize(rng: Rng): number {
  return Math.round(200 * (5000 / 200) ** rng());
}

function fillerAsset(seed: number, index: number): BenchAsset {
  const rng = rngFor(seed, index);
  const language = pick(rng, languages);
  const first = words(rng, language.libs);
  const target = bodySize(rng);
  const blocks = [language.block(rng, first)];
  for (let length = blocks[0]!.length; length < target; length += blocks[blocks.length - 1]!.length + 1) {
    blocks.push(language.block(rng, words(rng, language.libs)));
  }
  let code = blocks.join('\n');
  if (code.length > 5000) code = code.slice(0, code.lastIndexOf('\n', 5000) + 1);
  const nameStyle = rng();
  const name =
    nameStyle < 0.35 ? first.camel
      : nameStyle < 0.7 ? `${cap(first.verb)} ${first.noun} ${first.qualifier.toLowerCase()} ${pick(rng, adverbs)}`
        : `${cap(first.lib)}: ${first.verb} ${first.noun} ${pick(rng, adverbs)}`;
  const tagCount = int(rng, 0, 5);
  const tags = new Set<string>();
  for (let i = 0; i < tagCount; i++) tags.add(pick(rng, [language.label.toLowerCase(), first.lib.toLowerCase(), first.noun, ...topics]));
  return { key: `a${index}`, name, tags: [...tags], language: language.id, code };
}

interface Plant {
  readonly query: string;
  readonly kind: PlantedQuery['kind'];
  readonly target: Omit<BenchAsset, 'key'>;
  readonly distractors: readonly Omit<BenchAsset, 'key'>[];
}

const plant = (name: string, language: string, tags: string[], code: string): Omit<BenchAsset, 'key'> => ({ name, language, tags, code });

// The storage-search study's 20 queries, plus 10 more of the same kinds.
const plants: readonly Plant[] = [
  { query: 'debonce', kind: 'typo', target: plant('Debounce input handler', 'ts', ['ui', 'events'], 'export function debounce<T extends (...args: unknown[]) => void>(fn: T, wait = 200): T {\n  let timer: ReturnType<typeof setTimeout> | undefined;\n  return ((...args: unknown[]) => {\n    clearTimeout(timer);\n    timer = setTimeout(() => fn(...args), wait);\n  }) as T;\n}\n'),
    distractors: [plant('Bounce animation keyframes', 'css', ['animation'], '@keyframes bounce {\n  0%, 100% { transform: translateY(0); }\n  50% { transform: translateY(-12px); }\n}\n.ball { animation: bounce 600ms ease-in-out infinite; }\n')] },
  { query: 'fetchJsn', kind: 'typo', target: plant('fetchJson', 'ts', ['http'], 'export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {\n  const response = await fetch(url, { ...init, headers: { accept: \'application/json\', ...init?.headers } });\n  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);\n  return (await response.json()) as T;\n}\n'),
    distractors: [plant('fetchJsonp', 'js', ['http', 'legacy'], 'function fetchJsonp(url, callbackName) {\n  return new Promise((resolve) => {\n    window[callbackName] = resolve;\n    const script = document.createElement(\'script\');\n    script.src = `${url}?callback=${callbackName}`;\n    document.body.appendChild(script);\n  });\n}\n')] },
  { query: 'useEfect cleanup', kind: 'typo', target: plant('useEffect cleanup on unmount', 'tsx', ['react', 'hooks'], 'useEffect(() => {\n  const controller = new AbortController();\n  const id = setInterval(() => poll(controller.signal), 5000);\n  return () => {\n    clearInterval(id);\n    controller.abort();\n  };\n}, [poll]);\n'),
    distractors: [plant('useEffect fetch on mount', 'tsx', ['react'], 'useEffect(() => {\n  fetch(\'/api/items\').then((r) => r.json()).then(setItems);\n}, []);\n'),
      plant('useLayoutEffect measure', 'tsx', ['react'], 'useLayoutEffect(() => {\n  const rect = ref.current?.getBoundingClientRect();\n  if (rect) setHeight(rect.height);\n}, []);\n')] },
  { query: 'parseArgs', kind: 'exact', target: plant('parseArgs', 'ts', ['cli', 'node'], 'import { parseArgs } from \'node:util\';\n\nconst { values, positionals } = parseArgs({\n  allowPositionals: true,\n  options: { verbose: { type: \'boolean\', short: \'v\' }, out: { type: \'string\', short: \'o\' } },\n});\n'), distractors: [] },
  { query: 'redis cache', kind: 'intent', target: plant('Redis cache wrapper', 'ts', ['redis', 'cache'], 'export async function cached<T>(key: string, ttlSeconds: number, load: () => Promise<T>): Promise<T> {\n  const hit = await redis.get(key);\n  if (hit) return JSON.parse(hit) as T;\n  const value = await load();\n  await redis.set(key, JSON.stringify(value), \'EX\', ttlSeconds);\n  return value;\n}\n'),
    distractors: [plant('Redis pub/sub', 'ts', ['redis', 'messaging'], 'const sub = redis.duplicate();\nawait sub.subscribe(\'events\', (message) => handle(JSON.parse(message)));\nawait redis.publish(\'events\', JSON.stringify({ type: \'ping\' }));\n'),
      plant('LRU cache', 'ts', ['cache', 'collections'], 'class Lru<K, V> {\n  private map = new Map<K, V>();\n  constructor(private max: number) {}\n  get(key: K) { const v = this.map.get(key); if (v !== undefined) { this.map.delete(key); this.map.set(key, v); } return v; }\n}\n')] },
  { query: 'binsearch', kind: 'partial', target: plant('binarySearch', 'ts', ['algorithms'], 'export function binarySearch(sorted: number[], target: number): number {\n  let lo = 0, hi = sorted.length - 1;\n  while (lo <= hi) {\n    const mid = (lo + hi) >>> 1;\n    if (sorted[mid] === target) return mid;\n    if (sorted[mid] < target) lo = mid + 1; else hi = mid - 1;\n  }\n  return -1;\n}\n'), distractors: [] },
  { query: 'jwt verify', kind: 'intent', target: plant('Verify a JWT', 'ts', ['auth', 'jwt'], 'import jwt from \'jsonwebtoken\';\n\nexport function verifyToken(token: string, secret: string): Claims {\n  return jwt.verify(token, secret, { algorithms: [\'HS256\'], maxAge: \'1h\' }) as Claims;\n}\n'), distractors: [] },
  { query: 'dockerfile node', kind: 'intent', target: plant('Dockerfile for a Node app', 'dockerfile', ['docker', 'node'], 'FROM node:22-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci --omit=dev\nCOPY . .\nUSER node\nCMD ["node", "server.js"]\n'), distractors: [] },
  { query: 'sql upsert postgres', kind: 'intent', target: plant('Postgres upsert', 'sql', ['sql', 'postgres'], 'INSERT INTO accounts (id, email, updated_at)\nVALUES ($1, $2, now())\nON CONFLICT (id) DO UPDATE\nSET email = EXCLUDED.email, updated_at = now();\n'), distractors: [] },
  { query: 'readFileSyn', kind: 'partial', target: plant('readFileSync with encoding', 'js', ['node', 'fs'], 'const fs = require(\'fs\');\nconst text = fs.readFileSync(path.join(__dirname, \'data.json\'), \'utf8\');\nconst data = JSON.parse(text);\n'), distractors: [] },
  { query: 'flaten array', kind: 'typo', target: plant('Flatten a nested array', 'js', ['arrays'], 'const flatten = (list) => list.reduce((acc, x) => acc.concat(Array.isArray(x) ? flatten(x) : x), []);\n'), distractors: [] },
  { query: 'useLocalStorag', kind: 'partial', target: plant('useLocalStorage hook', 'tsx', ['react', 'hooks'], 'export function useLocalStorage<T>(key: string, initial: T) {\n  const [value, setValue] = useState<T>(() => JSON.parse(localStorage.getItem(key) ?? \'null\') ?? initial);\n  useEffect(() => localStorage.setItem(key, JSON.stringify(value)), [key, value]);\n  return [value, setValue] as const;\n}\n'), distractors: [] },
  { query: 'regex email', kind: 'intent', target: plant('Email validation regex', 'js', ['regex', 'validation'], 'const EMAIL = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]{2,}$/i;\nexport const isEmail = (s) => EMAIL.test(s.trim());\n'), distractors: [] },
  { query: 'kubectl rollout restart', kind: 'intent', target: plant('kubectl rollout restart', 'sh', ['kubernetes'], 'kubectl rollout restart deployment/api -n production\nkubectl rollout status deployment/api -n production --timeout=120s\n'), distractors: [] },
  { query: 'goroutine waitgroup', kind: 'intent', target: plant('Goroutines with a WaitGroup', 'go', ['go', 'concurrency'], 'var wg sync.WaitGroup\nfor _, url := range urls {\n\twg.Add(1)\n\tgo func(u string) {\n\t\tdefer wg.Done()\n\t\tfetch(u)\n\t}(url)\n}\nwg.Wait()\n'), distractors: [] },
  { query: 'pandas groupby agg', kind: 'intent', target: plant('Pandas groupby aggregate', 'py', ['pandas'], 'summary = (\n    df.groupby(["region", "month"])\n      .agg(total=("amount", "sum"), orders=("id", "count"))\n      .reset_index()\n)\n'), distractors: [] },
  { query: 'retry exponential backof', kind: 'typo', target: plant('Retry with exponential backoff', 'ts', ['async', 'resilience'], 'export async function retry<T>(fn: () => Promise<T>, tries = 5, base = 200): Promise<T> {\n  for (let attempt = 0; ; attempt++) {\n    try { return await fn(); }\n    catch (error) {\n      if (attempt + 1 >= tries) throw error;\n      await sleep(base * 2 ** attempt + Math.random() * base);\n    }\n  }\n}\n'), distractors: [] },
  { query: 'uuidv4', kind: 'exact', target: plant('uuidv4', 'js', ['ids'], 'export const uuidv4 = () => \'10000000-1000-4000-8000-100000000000\'.replace(/[018]/g, (c) =>\n  (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));\n'), distractors: [] },
  { query: 'cors middleware express', kind: 'intent', target: plant('Express CORS middleware', 'js', ['express', 'http'], 'app.use((req, res, next) => {\n  res.setHeader(\'Access-Control-Allow-Origin\', allowedOrigin);\n  res.setHeader(\'Access-Control-Allow-Methods\', \'GET,POST,PUT,DELETE\');\n  if (req.method === \'OPTIONS\') return res.sendStatus(204);\n  next();\n});\n'), distractors: [] },
  { query: 'serde deserialize json struct', kind: 'intent', target: plant('Serde: deserialize JSON into a struct', 'rs', ['rust', 'serde', 'json'], '#[derive(Debug, Deserialize)]\nstruct Settings {\n    name: String,\n    #[serde(default)]\n    retries: u32,\n}\n\nlet settings: Settings = serde_json::from_str(&text)?;\n'), distractors: [] },
  { query: 'throttle scroll', kind: 'intent', target: plant('Throttle scroll events', 'js', ['ui', 'events'], 'let ticking = false;\nwindow.addEventListener(\'scroll\', () => {\n  if (ticking) return;\n  ticking = true;\n  requestAnimationFrame(() => { onScroll(window.scrollY); ticking = false; });\n});\n'), distractors: [] },
  { query: 'memoize fibonaci', kind: 'typo', target: plant('Memoized fibonacci', 'py', ['algorithms'], 'from functools import lru_cache\n\n@lru_cache(maxsize=None)\ndef fibonacci(n: int) -> int:\n    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)\n'), distractors: [] },
  { query: 'argparse subcommand', kind: 'intent', target: plant('argparse with subcommands', 'py', ['cli'], 'parser = argparse.ArgumentParser(prog="tool")\nsub = parser.add_subparsers(dest="command", required=True)\nrun = sub.add_parser("run")\nrun.add_argument("--dry-run", action="store_true")\nargs = parser.parse_args()\n'), distractors: [] },
  { query: 'csv to json', kind: 'intent', target: plant('Convert CSV to JSON', 'py', ['csv', 'json'], 'import csv, json\n\nwith open("in.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\nwith open("out.json", "w") as f:\n    json.dump(rows, f, indent=2)\n'), distractors: [] },
  { query: 'base64 encod', kind: 'partial', target: plant('Base64 encode and decode', 'ts', ['encoding'], 'export const toBase64 = (text: string) => Buffer.from(text, \'utf8\').toString(\'base64\');\nexport const fromBase64 = (b64: string) => Buffer.from(b64, \'base64\').toString(\'utf8\');\n'), distractors: [] },
  { query: 'deep clone object', kind: 'intent', target: plant('Deep clone an object', 'js', ['objects'], 'const copy = structuredClone(original);\n// Before structuredClone: JSON round-trip (loses Dates, Maps and undefined)\nconst legacy = JSON.parse(JSON.stringify(original));\n'), distractors: [] },
  { query: 'git undo last commit', kind: 'intent', target: plant('Undo the last git commit', 'sh', ['git'], 'git reset --soft HEAD~1   # keep the changes staged\ngit reset --hard HEAD~1   # drop them\n'), distractors: [] },
  { query: 'tokio spawn', kind: 'exact', target: plant('Spawn tasks with tokio', 'rs', ['rust', 'async'], '#[tokio::main]\nasync fn main() {\n    let handles: Vec<_> = (0..4).map(|i| tokio::spawn(async move { work(i).await })).collect();\n    for h in handles { h.await.unwrap(); }\n}\n'), distractors: [] },
  { query: 'websocket reconect', kind: 'typo', target: plant('WebSocket auto-reconnect', 'ts', ['websocket', 'networking'], 'function connect(url: string, delay = 500) {\n  const ws = new WebSocket(url);\n  ws.onclose = () => setTimeout(() => connect(url, Math.min(delay * 2, 30_000)), delay);\n  ws.onmessage = (event) => handle(JSON.parse(event.data));\n}\n'), distractors: [] },
  { query: 'sha256 hash file', kind: 'intent', target: plant('SHA-256 of a file', 'ts', ['crypto', 'node'], 'import { createHash } from \'node:crypto\';\nimport { createReadStream } from \'node:fs\';\n\nexport async function sha256File(path: string): Promise<string> {\n  const hash = createHash(\'sha256\');\n  for await (const chunk of createReadStream(path)) hash.update(chunk);\n  return hash.digest(\'hex\');\n}\n'), distractors: [] },
];

export function generateCorpus(size: number, seed = 42): Corpus {
  const assets: BenchAsset[] = [];
  for (let i = 0; i < size; i++) assets.push(fillerAsset(seed, i));
  // Planted records overwrite filler at seeded, spread-out positions.
  const planted = plants.flatMap((p) => [p.target, ...p.distractors]);
  const rng = rngFor(seed ^ 0x5eed, size);
  const stride = size / planted.length;
  const queries: PlantedQuery[] = [];
  let slot = 0;
  for (const p of plants) {
    for (const [n, record] of [p.target, ...p.distractors].entries()) {
      const index = Math.min(size - 1, Math.floor((slot++ + rng()) * stride));
      const key = `p${index}`;
      assets[index] = { key, ...record };
      if (n === 0) queries.push({ query: p.query, target: key, kind: p.kind });
    }
  }
  let jsonBytes = 0;
  for (const a of assets) jsonBytes += Buffer.byteLength(JSON.stringify(a));
  return { assets, queries, jsonBytes };
}

/** Extra queries for latency only (no known answer): filler identifiers, words and misspellings. */
export function latencyQueries(count: number, seed = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const rng = rngFor(seed, i);
    const w = words(rng, ['lib']);
    const style = rng();
    out.push(style < 0.3 ? w.camel : style < 0.6 ? `${w.verb} ${w.noun}` : style < 0.8 ? w.camel.slice(0, -2) : `${w.noun} ${pick(rng, topics)}`);
  }
  return out;
}

/** A snippet that is in no corpus (a different seed stream), for "unrelated copy" checks. */
export function unrelatedSnippet(index: number): string {
  return fillerAsset(0xbad5eed, index).code;
}
