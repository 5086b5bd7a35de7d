/**
 * Suggest (copy → decision) over HTTP: copies of saved snippets (exact, a contiguous part,
 * reformatted, embedded in other code) and unrelated real code, timed per request. The decisions
 * are reported beside the latency so a fast but blind connector shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchClient } from '../client.ts';
import { rngFor, unrelatedSnippet, type Corpus } from '../corpus.ts';
import { repoRoot } from '../processes.ts';
import { suggest, type Decision } from '../satchelApi.ts';
import { medianOfRuns, type Latency } from '../stats.ts';

type CopyKind = 'exact' | 'part' | 'reformatted' | 'embedded' | 'unrelated';

interface Copy {
  readonly kind: CopyKind;
  readonly text: string;
  /** Key of the saved asset it came from. */
  readonly source?: string;
}

export interface SuggestFigure extends Latency {
  /** Per kind: how many copies got a reuse suggestion naming the source (for unrelated: any reuse). */
  readonly reuse: Readonly<Record<CopyKind, { readonly hits: number; readonly of: number }>>;
  readonly decisions: Readonly<Record<Decision, number>>;
}

/**
 * Real code that is in no corpus: 20-line chunks of the installed koa and ws sources. (Snippets
 * from the corpus generator would share its templates' boilerplate with the saved ones.)
 */
function realChunks(count: number): string[] {
  const files = ['koa/lib', 'ws/lib'].flatMap((dir) => {
    const path = join(repoRoot, 'node_modules', dir);
    return readdirSync(path).filter((f) => f.endsWith('.js')).sort().map((f) => join(path, f));
  });
  const chunks: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let start = 0; start + 20 <= lines.length; start += 40) {
      const chunk = lines.slice(start, start + 20).join('\n');
      if (chunk.replace(/\s/g, '').length >= 300) chunks.push(chunk);
    }
  }
  const step = Math.max(1, Math.floor(chunks.length / count));
  return Array.from({ length: Math.min(count, chunks.length) }, (_, i) => chunks[i * step]!);
}

function copiesOf(corpus: Corpus, perKind: number): Copy[] {
  const unrelated = realChunks(perKind);
  const rng = rngFor(0xc0ffee, corpus.assets.length);
  const sources = corpus.assets.filter((a) => a.key.startsWith('a') && a.code.length >= 600);
  const copies: Copy[] = [];
  for (let i = 0; i < perKind; i++) {
    const source = sources[Math.floor(rng() * sources.length)]!;
    const lines = source.code.split('\n');
    const start = Math.floor(rng() * lines.length * 0.4);
    const part = lines.slice(start, start + Math.max(6, Math.ceil(lines.length * 0.5))).join('\n');
    const reformatted = lines.map((line) => line.replace(/^( +)/, (s) => '\t'.repeat(Math.ceil(s.length / 2))).replace(/\s*;$/, ';') + (rng() < 0.1 ? ' // note' : '')).join('\n');
    const foreign = unrelatedSnippet(i).split('\n');
    copies.push(
      { kind: 'exact', text: source.code, source: source.key },
      { kind: 'part', text: part, source: source.key },
      { kind: 'reformatted', text: `// copied\n${reformatted}\n`, source: source.key },
      { kind: 'embedded', text: [...foreign.slice(0, 6), source.code, ...foreign.slice(6, 12)].join('\n'), source: source.key },
      { kind: 'unrelated', text: unrelated[i] ?? unrelatedSnippet(1000 + i) },
    );
  }
  return copies;
}

export async function measureSuggest(
  client: BenchClient,
  applicationId: string,
  corpus: Corpus,
  idOf: ReadonlyMap<string, string>,
  options: { perKind: number; runs: number; budgetMs: number },
): Promise<SuggestFigure> {
  const copies = copiesOf(corpus, options.perKind);
  const kinds: CopyKind[] = ['exact', 'part', 'reformatted', 'embedded', 'unrelated'];
  const reuse = Object.fromEntries(kinds.map((k) => [k, { hits: 0, of: 0 }])) as Record<CopyKind, { hits: number; of: number }>;
  const decisions: Record<Decision, number> = { reuse: 0, save: 0, none: 0 };
  for (const copy of copies.slice(0, 5)) await suggest(client, applicationId, copy.text);
  const runs: number[][] = [];
  const deadline = performance.now() + options.budgetMs;
  for (let run = 0; run < options.runs && (run === 0 || performance.now() < deadline); run++) {
    const times: number[] = [];
    for (const copy of copies) {
      const reply = await suggest(client, applicationId, copy.text);
      times.push(reply.ms);
      if (run > 0) continue;
      decisions[reply.decision]++;
      const tally = reuse[copy.kind];
      tally.of++;
      const named = copy.source === undefined ? reply.decision === 'reuse' : reply.decision === 'reuse' && reply.ids.includes(idOf.get(copy.source) ?? '');
      if (named) tally.hits++;
    }
    runs.push(times);
  }
  return { ...medianOfRuns(runs), reuse, decisions };
}
