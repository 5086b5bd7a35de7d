/**
 * Realistic saved snippets (several languages) and held-out snippets that were never saved, for the
 * suggestion-quality test. Copies of the saved ones are derived by `copiesOf`.
 */

export interface FixtureSnippet {
  readonly name: string;
  readonly language: string;
  readonly code: string;
}

export const savedSnippets: readonly FixtureSnippet[] = [
  { name: 'debounce', language: 'ts', code: `export function debounce<T extends (...args: any[]) => void>(fn: T, waitMs: number): T {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return ((...args: Parameters<T>) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, waitMs);
  }) as T;
}` },
  { name: 'fetchJson', language: 'ts', code: `async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  if (!response.ok) {
    const body = await response.text();
    throw new Error(\`Request to \${url} failed with \${response.status}: \${body.slice(0, 200)}\`);
  }
  return (await response.json()) as T;
}` },
  { name: 'retry', language: 'ts', code: `export async function retry<T>(operation: () => Promise<T>, attempts = 5, baseDelayMs = 200): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await operation();
    } catch (error) {
      lastError = error;
      const delay = baseDelayMs * 2 ** attempt + Math.random() * baseDelayMs;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw lastError;
}` },
  { name: 'groupBy', language: 'js', code: `function groupBy(items, keyOf) {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    const bucket = groups.get(key);
    if (bucket) bucket.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}` },
  { name: 'express server', language: 'js', code: `const express = require('express');
const app = express();
app.use(express.json({ limit: '1mb' }));
app.get('/health', (req, res) => res.json({ status: 'ok', uptime: process.uptime() }));
app.post('/items', async (req, res, next) => {
  try {
    const item = await db.items.insert(req.body);
    res.status(201).json(item);
  } catch (err) {
    next(err);
  }
});
app.listen(process.env.PORT || 3000, () => console.log('listening'));` },
  { name: 'react hook useLocalStorage', language: 'tsx', code: `export function useLocalStorage<T>(key: string, initial: T) {
  const [value, setValue] = useState<T>(() => {
    const stored = window.localStorage.getItem(key);
    return stored === null ? initial : (JSON.parse(stored) as T);
  });
  useEffect(() => {
    window.localStorage.setItem(key, JSON.stringify(value));
  }, [key, value]);
  return [value, setValue] as const;
}` },
  { name: 'python read csv', language: 'py', code: `import csv
from collections import defaultdict

def totals_by_category(path):
    totals = defaultdict(float)
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            amount = float(row["amount"] or 0)
            totals[row["category"].strip().lower()] += amount
    return dict(sorted(totals.items(), key=lambda pair: pair[1], reverse=True))` },
  { name: 'python lru cache fib', language: 'py', code: `from functools import lru_cache

@lru_cache(maxsize=None)
def fibonacci(n: int) -> int:
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)

def first_fibonacci_over(limit: int) -> int:
    index = 0
    while fibonacci(index) <= limit:
        index += 1
    return index` },
  { name: 'python requests session', language: 'py', code: `import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

def make_session(total_retries=3, backoff=0.5):
    session = requests.Session()
    retry = Retry(total=total_retries, backoff_factor=backoff, status_forcelist=(500, 502, 503, 504))
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers.update({"User-Agent": "satchel-fixture/1.0"})
    return session` },
  { name: 'python dataclass', language: 'py', code: `from dataclasses import dataclass, field
from datetime import datetime

@dataclass(order=True)
class Task:
    priority: int
    title: str = field(compare=False)
    created: datetime = field(default_factory=datetime.utcnow, compare=False)
    tags: list = field(default_factory=list, compare=False)

    def is_urgent(self) -> bool:
        return self.priority <= 1 or "urgent" in self.tags` },
  { name: 'go http handler', language: 'go', code: `func healthHandler(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := db.PingContext(ctx); err != nil {
			http.Error(w, "database unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
	}
}` },
  { name: 'go worker pool', language: 'go', code: `func process(jobs []Job, workers int) []Result {
	in := make(chan Job)
	out := make(chan Result, len(jobs))
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range in {
				out <- job.Run()
			}
		}()
	}
	for _, job := range jobs {
		in <- job
	}
	close(in)
	wg.Wait()
	close(out)
	results := make([]Result, 0, len(jobs))
	for r := range out {
		results = append(results, r)
	}
	return results
}` },
  { name: 'rust read lines', language: 'rs', code: `use std::fs::File;
use std::io::{self, BufRead, BufReader};

fn count_matching_lines(path: &str, needle: &str) -> io::Result<usize> {
    let file = File::open(path)?;
    let reader = BufReader::new(file);
    let mut count = 0;
    for line in reader.lines() {
        if line?.contains(needle) {
            count += 1;
        }
    }
    Ok(count)
}` },
  { name: 'rust struct impl', language: 'rs', code: `#[derive(Debug, Clone, PartialEq)]
pub struct Rectangle {
    pub width: f64,
    pub height: f64,
}

impl Rectangle {
    pub fn new(width: f64, height: f64) -> Self {
        Rectangle { width, height }
    }

    pub fn area(&self) -> f64 {
        self.width * self.height
    }

    pub fn can_hold(&self, other: &Rectangle) -> bool {
        self.width > other.width && self.height > other.height
    }
}` },
  { name: 'java singleton', language: 'java', code: `public final class ConfigRegistry {
    private static volatile ConfigRegistry instance;
    private final Map<String, String> values = new ConcurrentHashMap<>();

    private ConfigRegistry() {}

    public static ConfigRegistry getInstance() {
        if (instance == null) {
            synchronized (ConfigRegistry.class) {
                if (instance == null) {
                    instance = new ConfigRegistry();
                }
            }
        }
        return instance;
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }
}` },
  { name: 'java stream', language: 'java', code: `List<String> topCustomers = orders.stream()
    .filter(order -> order.getStatus() == Status.PAID)
    .collect(Collectors.groupingBy(Order::getCustomerId, Collectors.summingDouble(Order::getTotal)))
    .entrySet().stream()
    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
    .limit(10)
    .map(Map.Entry::getKey)
    .collect(Collectors.toList());` },
  { name: 'csharp async file', language: 'cs', code: `public static async Task<int> CountWordsAsync(string path, CancellationToken token)
{
    using var reader = new StreamReader(path);
    var count = 0;
    string? line;
    while ((line = await reader.ReadLineAsync(token)) != null)
    {
        count += line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Length;
    }
    return count;
}` },
  { name: 'sql report', language: 'sql', code: `SELECT c.name,
       COUNT(o.id) AS orders,
       SUM(o.total) AS revenue,
       MAX(o.created_at) AS last_order
FROM customers c
JOIN orders o ON o.customer_id = c.id
WHERE o.status = 'paid'
  AND o.created_at >= DATE '2024-01-01'
GROUP BY c.name
HAVING SUM(o.total) > 1000
ORDER BY revenue DESC
LIMIT 20;` },
  { name: 'bash backup', language: 'sh', code: `#!/usr/bin/env bash
set -euo pipefail
SOURCE_DIR="\${1:?usage: backup.sh SOURCE DEST}"
DEST_DIR="\${2:?usage: backup.sh SOURCE DEST}"
STAMP="$(date +%Y%m%d-%H%M%S)"
ARCHIVE="$DEST_DIR/backup-$STAMP.tar.gz"
mkdir -p "$DEST_DIR"
tar -czf "$ARCHIVE" -C "$SOURCE_DIR" .
find "$DEST_DIR" -name 'backup-*.tar.gz' -mtime +14 -delete
echo "wrote $ARCHIVE"` },
  { name: 'css grid', language: 'css', code: `.gallery {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 1rem;
  padding: 2rem;
}
.gallery img {
  width: 100%;
  aspect-ratio: 4 / 3;
  object-fit: cover;
  border-radius: 8px;
}` },
  { name: 'dockerfile node', language: 'dockerfile', code: `FROM node:22-alpine AS build
WORKDIR /app
COPY package*.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:22-alpine
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/dist ./dist
COPY --from=build /app/node_modules ./node_modules
EXPOSE 3000
CMD ["node", "dist/server.js"]` },
  { name: 'ts binary search', language: 'ts', code: `export function lowerBound(sorted: readonly number[], target: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}` },
  { name: 'ts event emitter', language: 'ts', code: `export class TypedEmitter<Events extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof Events, Set<(payload: any) => void>>();

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }
}` },
  { name: 'js deep clone', language: 'js', code: `function deepClone(value, seen = new WeakMap()) {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (value instanceof Date) return new Date(value.getTime());
  const copy = Array.isArray(value) ? [] : Object.create(Object.getPrototypeOf(value));
  seen.set(value, copy);
  for (const key of Reflect.ownKeys(value)) {
    copy[key] = deepClone(value[key], seen);
  }
  return copy;
}` },
  { name: 'node stream pipeline', language: 'js', code: `const { pipeline } = require('node:stream/promises');
const { createReadStream, createWriteStream } = require('node:fs');
const { createGzip } = require('node:zlib');

async function compressFile(input, output) {
  await pipeline(
    createReadStream(input),
    createGzip({ level: 9 }),
    createWriteStream(output),
  );
  return output;
}` },
  { name: 'python argparse', language: 'py', code: `import argparse

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Resize every image in a folder.")
    parser.add_argument("source", help="folder with the original images")
    parser.add_argument("--width", type=int, default=1280, help="target width in pixels")
    parser.add_argument("--quality", type=int, default=85, choices=range(1, 101), metavar="1-100")
    parser.add_argument("--dry-run", action="store_true", help="only print what would change")
    return parser.parse_args(argv)` },
  { name: 'python flask route', language: 'py', code: `@app.route("/api/users/<int:user_id>", methods=["GET", "PATCH"])
def user_detail(user_id):
    user = User.query.get_or_404(user_id)
    if request.method == "PATCH":
        payload = request.get_json(force=True)
        for field in ("name", "email", "bio"):
            if field in payload:
                setattr(user, field, payload[field])
        db.session.commit()
    return jsonify(user.to_dict())` },
  { name: 'kotlin data class', language: 'kt', code: `data class Invoice(val id: String, val lines: List<Line>, val currency: String = "EUR") {
    data class Line(val description: String, val quantity: Int, val unitPrice: BigDecimal)

    val total: BigDecimal
        get() = lines.fold(BigDecimal.ZERO) { sum, line ->
            sum + line.unitPrice.multiply(BigDecimal(line.quantity))
        }

    fun isEmpty() = lines.isEmpty()
}` },
  { name: 'c linked list', language: 'c', code: `#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

struct node *push(struct node *head, int value) {
    struct node *created = malloc(sizeof *created);
    if (!created) return head;
    created->value = value;
    created->next = head;
    return created;
}

void free_list(struct node *head) {
    while (head) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
}` },
  { name: 'ruby each_with_object', language: 'rb', code: `def word_frequencies(text)
  text.downcase
      .scan(/[a-z']+/)
      .reject { |word| STOP_WORDS.include?(word) }
      .each_with_object(Hash.new(0)) { |word, counts| counts[word] += 1 }
      .sort_by { |word, count| [-count, word] }
      .first(25)
      .to_h
end` },
  { name: 'yaml github action', language: 'yaml', code: `name: ci
on:
  push:
    branches: [main]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [20, 22]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: \${{ matrix.node }}
          cache: npm
      - run: npm ci
      - run: npm test` },
  { name: 'ts zod schema', language: 'ts', code: `const userSchema = z.object({
  id: z.string().uuid(),
  email: z.string().email(),
  displayName: z.string().min(1).max(80),
  roles: z.array(z.enum(['admin', 'editor', 'viewer'])).default(['viewer']),
  createdAt: z.coerce.date(),
});

export type User = z.infer<typeof userSchema>;

export function parseUser(input: unknown): User {
  return userSchema.parse(input);
}` },
];

/** Snippets never saved: none of them may be suggested for reuse. */
export const unrelatedSnippets: readonly FixtureSnippet[] = [
  { name: 'throttle', language: 'ts', code: `export function throttle(fn: () => void, intervalMs: number): () => void {
  let last = 0;
  let pending: NodeJS.Timeout | null = null;
  return () => {
    const now = Date.now();
    const remaining = intervalMs - (now - last);
    if (remaining <= 0) {
      last = now;
      fn();
    } else if (!pending) {
      pending = setTimeout(() => { pending = null; last = Date.now(); fn(); }, remaining);
    }
  };
}` },
  { name: 'python json merge', language: 'py', code: `def merge_settings(base: dict, override: dict) -> dict:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        else:
            merged[key] = value
    return merged` },
  { name: 'go reverse string', language: 'go', code: `func reverse(s string) string {
	runes := []rune(s)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	return string(runes)
}

func isPalindrome(s string) bool {
	clean := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	return clean == reverse(clean)
}` },
  { name: 'sql upsert', language: 'sql', code: `INSERT INTO inventory (sku, warehouse_id, quantity, updated_at)
VALUES ($1, $2, $3, now())
ON CONFLICT (sku, warehouse_id)
DO UPDATE SET quantity = inventory.quantity + EXCLUDED.quantity,
              updated_at = now()
RETURNING quantity;` },
  { name: 'js dom todo', language: 'js', code: `document.querySelector('#add').addEventListener('click', () => {
  const input = document.querySelector('#todo');
  const text = input.value.trim();
  if (!text) return;
  const li = document.createElement('li');
  li.textContent = text;
  li.addEventListener('dblclick', () => li.remove());
  document.querySelector('#list').appendChild(li);
  input.value = '';
});` },
  { name: 'rust enum match', language: 'rs', code: `enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
    Triangle { base: f64, height: f64 },
}

fn area(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle { radius } => std::f64::consts::PI * radius * radius,
        Shape::Square { side } => side * side,
        Shape::Triangle { base, height } => 0.5 * base * height,
    }
}` },
  { name: 'java record', language: 'java', code: `public record Temperature(double value, String unit) {
    public Temperature {
        if (!unit.equals("C") && !unit.equals("F")) {
            throw new IllegalArgumentException("unit must be C or F");
        }
    }

    public Temperature toCelsius() {
        return unit.equals("C") ? this : new Temperature((value - 32) * 5 / 9, "C");
    }
}` },
  { name: 'python async gather', language: 'py', code: `import asyncio
import aiohttp

async def fetch_status(session, url):
    async with session.get(url, timeout=10) as response:
        return url, response.status

async def check_all(urls):
    async with aiohttp.ClientSession() as session:
        results = await asyncio.gather(*(fetch_status(session, u) for u in urls), return_exceptions=True)
    return [r for r in results if not isinstance(r, Exception)]` },
  { name: 'ts matrix multiply', language: 'ts', code: `export function multiply(a: number[][], b: number[][]): number[][] {
  const rows = a.length;
  const cols = b[0]!.length;
  const inner = b.length;
  const out = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++)
    for (let k = 0; k < inner; k++)
      for (let j = 0; j < cols; j++) out[i]![j]! += a[i]![k]! * b[k]![j]!;
  return out;
}` },
  { name: 'css button', language: 'css', code: `.button-primary {
  background: linear-gradient(135deg, #4f46e5, #7c3aed);
  color: white;
  border: none;
  padding: 0.6rem 1.2rem;
  font-weight: 600;
  transition: transform 120ms ease, box-shadow 120ms ease;
}
.button-primary:hover {
  transform: translateY(-1px);
  box-shadow: 0 6px 16px rgba(79, 70, 229, 0.35);
}` },
  { name: 'bash git cleanup', language: 'sh', code: `git fetch --prune
for branch in $(git branch --merged main | grep -v -E '^\\*|main$'); do
  git branch -d "$branch"
done
git gc --auto` },
  { name: 'python pathlib walk', language: 'py', code: `from pathlib import Path

def largest_files(root, count=10):
    files = [p for p in Path(root).rglob("*") if p.is_file()]
    files.sort(key=lambda p: p.stat().st_size, reverse=True)
    return [(str(p), p.stat().st_size) for p in files[:count]]` },
];

export type CopyKind = 'exact' | 'partial' | 'reformatted' | 'commented' | 'superset';

/** A contiguous part of the snippet (about 60% of its lines, from the middle). */
export function partialOf(code: string): string {
  const lines = code.split('\n');
  const take = Math.max(4, Math.ceil(lines.length * 0.6));
  const start = Math.max(0, Math.floor((lines.length - take) / 2));
  return lines.slice(start, start + take).join('\n');
}

/** The same code laid out differently: other indentation, spacing and quote style. */
export function reformatted(code: string): string {
  return code
    .split('\n')
    .map((line) => '\t' + line.trim().replace(/\s*([=+\-*/<>,:;(){}])\s*/g, ' $1 ').replace(/ {2,}/g, ' '))
    .join('\n\n')
    .replace(/'([^'\n\\]*)'/g, '"$1"');
}

/** The code with comments added between its lines, in the language's comment syntax. */
export function commented(code: string, language: string): string {
  const marker = ['py', 'rb', 'sh', 'yaml', 'dockerfile'].includes(language) ? '#' : language === 'sql' ? '/*' : '//';
  const close = marker === '/*' ? ' */' : '';
  return code
    .split('\n')
    .flatMap((line, i) => (i % 3 === 1 ? [`${marker} step ${i}: keep this in sync with the caller${close}`, line] : [line]))
    .join('\n');
}

/** The snippet pasted inside other code. */
export function superset(code: string, host: string): string {
  const lines = host.split('\n');
  const half = Math.floor(lines.length / 2);
  return [...lines.slice(0, half), code, ...lines.slice(half)].join('\n');
}
