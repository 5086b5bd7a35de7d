/** The search-by-meaning figures (meaningQuality.ts) as a Markdown table and notes, as docs/search.md shows them. */
import type { Outcome } from './attempt.ts';
import type { MeaningQualityFigure, Recall } from './meaningQuality.ts';

const pct = (value: number): string => `${(value * 100).toFixed(0)}%`;
const both = (recall: Recall): string => `${pct(recall.at1)} / ${pct(recall.at5)}`;
const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1)) + ' ms';
const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(0)} MB` : 'n/a');
const k = (size: number): string => (size >= 1000 ? `${size / 1000}k` : String(size));

/** The goal of issue 27: hybrid recall@5 over the paraphrase and meaning queries together. */
export const HYBRID_RECALL_GOAL = 0.7;

export function meaningQualityReport(figures: ReadonlyArray<{ size: number; outcome: Outcome<MeaningQualityFigure> }>): string {
  const lines = ['| size | queries | n | lexical r@1 / r@5 | vectors only r@1 / r@5 | hybrid r@1 / r@5 |', '|---|---|---|---|---|---|'];
  const notes: string[] = [];
  for (const { size, outcome } of figures) {
    if (!outcome.ok) {
      lines.push(`| ${k(size)} | unavailable | | | | |`);
      notes.push(`${k(size)}: ${outcome.reason}`);
      continue;
    }
    const f = outcome.value;
    for (const set of f.sets) lines.push(`| ${k(size)} | ${set.name} | ${set.queries} | ${both(set.lexical)} | ${both(set.vectors)} | ${both(set.hybrid)} |`);
    const meaning = f.sets.filter((set) => !set.name.startsWith('lexical'));
    const n = meaning.reduce((sum, set) => sum + set.queries, 0);
    const hybrid = meaning.reduce((sum, set) => sum + set.hybrid.at5 * set.queries, 0) / n;
    const lexical = meaning.reduce((sum, set) => sum + set.lexical.at5 * set.queries, 0) / n;
    lines.push(`| ${k(size)} | **by meaning, all ${n}** | ${n} | ${pct(lexical)} r@5 | | **${pct(hybrid)} r@5** |`);
    const verdict = hybrid >= HYBRID_RECALL_GOAL ? 'met' : `missed by ${((HYBRID_RECALL_GOAL - hybrid) * 100).toFixed(0)} points`;
    const gained = meaning.reduce((sum, set) => sum + set.gained, 0);
    notes.push(`${k(size)} with ${f.model}: hybrid recall@5 by meaning ${pct(hybrid)} (goal ${pct(HYBRID_RECALL_GOAL)}: ${verdict}); hybrid finds ${gained} of them in its top 5 that the lexical ranking did not.`);
    for (const set of f.sets) {
      if (set.lost.length > 0) notes.push(`${k(size)} ${set.name}: hybrid loses ${set.lost.length} lexical top-5 hit(s): ${set.lost.map((q) => JSON.stringify(q)).join(', ')}.`);
    }
    notes.push(
      `${k(size)}: back-fill ${(f.backfillMs / 1000).toFixed(0)} s, ${f.backfillPerSecond.toFixed(1)} snippets/s (${f.backfillCpuMsPerSnippet.toFixed(0)} ms of CPU per snippet in the model's process); ` +
        `search p50 / p95 lexical ${ms(f.lexicalLatency.p50)} / ${ms(f.lexicalLatency.p95)}, hybrid (query vector made) ${ms(f.hybridLatency.p50)} / ${ms(f.hybridLatency.p95)}; ` +
        `RSS host ${mb(f.hostRssBefore)} → ${mb(f.hostRssAfter)} with the vectors, model process ${mb(f.modelRss)}.`,
    );
  }
  return [...lines, '', ...notes.map((note) => `- ${note}`)].join('\n');
}
