/**
 * The figures table (Markdown, so it can go into docs/performance.md as printed), each target checked,
 * followed by what was missed or unavailable and the measured detail that explains it.
 */
import type { Results, SizeResult } from './run.ts';
import type { Outcome } from './figures/attempt.ts';
import { HYBRID_RECALL_GOAL } from './figures/meaningQualityReport.ts';

interface Row {
  readonly figure: string;
  readonly size: string;
  readonly satchel: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean | undefined;
}

const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)) + ' ms';
const mb = (bytes: number): string => (bytes >= 10e6 ? `${(bytes / 1e6).toFixed(0)} MB` : `${(bytes / 1e3).toFixed(0)} kB`);
const k = (size: number): string => (size >= 1000 ? `${size / 1000}k` : String(size));
const times = (value: number): string => `${value >= 10 ? value.toFixed(0) : value.toFixed(1)}×`;
/** How many times faster `ours` is than `theirs` (both durations), or slower when below 1. */
const faster = (theirs: number, ours: number): string => (theirs >= ours ? `${times(theirs / ours)} faster` : `${times(ours / theirs)} slower`);
const pct = (value: number): string => `${(value * 100).toFixed(0)}%`;

export function printReport(results: Results): string {
  const rows: Row[] = [];
  const notes: string[] = [];
  const largest = Math.max(...results.sizes.map((s) => s.size));
  const targetSize = 100_000;
  const judged = (size: number): boolean => size === largest;
  const scaleNote = largest < targetSize ? ` (target is for ${k(targetSize)}; judged at ${k(largest)})` : '';
  const unavailable = (figure: string, size: string, outcome: Outcome<unknown>): void => {
    // Figures left out on purpose (--only-import) are not failures.
    if (outcome.ok || outcome.reason.startsWith('not measured')) return;
    rows.push({ figure, size, satchel: 'unavailable', baseline: '', ratio: '', target: '', met: undefined });
    notes.push(`${figure} at ${size}: unavailable, ${outcome.reason}`);
  };
  const miss = (row: Row, why: string): void => {
    rows.push(row);
    if (row.met === false) notes.push(`${row.figure} at ${row.size}: target ${row.target} NOT MET (${row.satchel}). ${why}`);
  };

  for (const s of results.sizes) sizeRows(s);
  globalRows();
  scalingRows();

  function sizeRows(s: SizeResult): void {
    const size = k(s.size);
    const j = judged(s.size);
    if (s.load.ok) {
      rows.push({ figure: 'corpus load (POST /assets/create, durable)', size, satchel: `${(s.load.value.ms / 1000).toFixed(1)} s, ${s.load.value.perSecond.toFixed(0)}/s`, baseline: `${mb(s.corpusJsonBytes)} as JSON`, ratio: '', target: '', met: undefined });
    } else unavailable('corpus load', size, s.load);

    if (s.import.ok) {
      const f = s.import.value;
      const bare = results.create.ok ? results.create.value.bareKoa.perSecond : undefined;
      // The goal's two halves: the rate (≥ 5,000/s) where a library's size does not dominate, and
      // the 100k library in under 30 s (3,333/s, into a store that grows to 100k as it goes).
      const fast = s.size >= targetSize ? f.ms < 30_000 : f.perSecond >= 5000;
      miss({ figure: 'import (POST /satchel/import, durable batches)', size, satchel: `${(f.ms / 1000).toFixed(1)} s, ${f.perSecond.toFixed(0)}/s`, baseline: bare !== undefined ? `bare Koa ${bare.toFixed(0)} requests/s` : '—', ratio: bare !== undefined ? `${pct(f.perSecond / bare)} of bare Koa` : '', target: s.size >= targetSize ? '100k in < 30 s' : '≥ 5,000/s', met: fast },
        `Batches of 500–5,000 assets, sized to take about 250 ms each, written in the import process; each is one transaction (FTS5, labels, links and the connector's fingerprints written with it) committed with synchronous=FULL.`);
      rows.push({ figure: '  import again (every snippet a duplicate)', size, satchel: `${(f.rerunMs / 1000).toFixed(1)} s, ${(f.assets / (f.rerunMs / 1000)).toFixed(0)}/s`, baseline: '', ratio: '', target: '', met: undefined });
      rows.push({ figure: '  host resident memory after the import', size, satchel: mb(f.rssBytes), baseline: `peak ${mb(f.peakBytes)}`, ratio: '', target: '', met: undefined });
      rows.push({ figure: '  host resident memory 20 s after the re-run', size, satchel: mb(f.settledRssBytes), baseline: '', ratio: '', target: '', met: undefined });
    } else unavailable('import', size, s.import);

    if (s.completion.ok) {
      const f = s.completion.value;
      miss({ figure: 'completion provider → items p50 / p95 (typing, over HTTP)', size, satchel: `${ms(f.p50)} / ${ms(f.p95)}`, baseline: `${f.count} calls, ${f.meanItems.toFixed(0)} items each`, ratio: '', target: s.size >= 10_000 ? 'p95 ≤ 20 ms' : '', met: s.size >= 10_000 ? f.p95 <= 20 : undefined },
        `Slowest: ${f.slowest.map((q) => `"${q.typed}" ${ms(q.ms)}`).join(', ')}.`);
      rows.push({ figure: '  completion CPU per call: host / provider (unaffected by load)', size, satchel: `${ms(f.hostCpuMs)} / ${ms(f.providerCpuMs)}`, baseline: '', ratio: '', target: '', met: undefined });
      rows.push({ figure: '  first completion after the import / after a restart', size, satchel: `${ms(f.firstMs)} / ${ms(f.restartFirstMs)}`, baseline: `${f.unasked} one-letter keystrokes answered without a request`, ratio: '', target: '', met: undefined });
    } else unavailable('completion', size, s.completion);

    if (s.sync.ok) {
      const f = s.sync.value;
      const goal = s.size >= 10_000;
      miss({ figure: 'sync: first sync of the library (vault written, pushed to a bare repository)', size, satchel: `${(f.initialMs / 1000).toFixed(1)} s`, baseline: `host RSS ${mb(f.rssBytes)}, repository ${mb(f.repositoryBytes)}`, ratio: '', target: goal ? '< 60 s' : '', met: goal ? f.initialMs < 60_000 : undefined }, 'The first sync reads every asset and writes two blobs each through one git fast-import.');
      rows.push({ figure: '  sync: an empty machine joining (fetched and applied)', size, satchel: `${(f.joinMs / 1000).toFixed(1)} s`, baseline: '', ratio: '', target: '', met: undefined });
      miss({ figure: 'sync: one changed snippet, sent p50 / p95', size, satchel: `${ms(f.oneChange.p50)} / ${ms(f.oneChange.p95)}`, baseline: `received ${ms(f.receiveOne.p50)} / ${ms(f.receiveOne.p95)}`, ratio: '', target: goal ? '< 1 s' : '', met: goal ? f.oneChange.p95 < 1000 : undefined }, 'A one-change sync runs git fetch, fast-import and push; each is a process start.');
    } else unavailable('sync', size, s.sync);

    if (s.search.ok) {
      const f = s.search.value;
      const linear = f.baselines.find((b) => b.engine === 'linear scan');
      const speedup = linear ? linear.p50 / f.satchel.p50 : Number.NaN;
      miss({ figure: 'search p50 over HTTP vs linear scan', size, satchel: ms(f.satchel.p50), baseline: linear ? ms(linear.p50) : '—', ratio: linear ? faster(linear.p50, f.satchel.p50) : '', target: j ? `≤ 10 ms, ≥ 10× faster${scaleNote}` : '', met: j ? f.satchel.p50 <= 10 && speedup >= 10 : undefined },
        `Linear scan p50 ${linear ? ms(linear.p50) : '—'}.`);
      miss({ figure: 'search p95 over HTTP', size, satchel: ms(f.satchel.p95), baseline: linear ? ms(linear.p95) : '—', ratio: '', target: j ? `≤ 30 ms${scaleNote}` : '', met: j ? f.satchel.p95 <= 30 : undefined },
        `${f.satchel.note ? `${f.satchel.note}. ` : ''}Slowest queries: ${f.slowest.map((q) => `"${q.query}" ${ms(q.ms)}`).join(', ')}.`);
      const rate = f.satchel.hits / f.satchel.planted;
      miss({ figure: 'search top-3 hit rate (planted typo/partial queries)', size, satchel: `${f.satchel.hits}/${f.satchel.planted} (${pct(rate)})`, baseline: linear ? `linear ${linear.hits}/${linear.planted}` : '', ratio: '', target: j ? `≥ 95%${scaleNote}` : '', met: j ? rate >= 0.95 : undefined },
        `Missed: ${f.misses.map((q) => `"${q}"`).join(', ')}.`);
      for (const b of f.baselines.filter((b) => b !== linear)) {
        rows.push({ figure: `  baseline ${b.engine}`, size, satchel: `p50 ${ms(b.p50)}, p95 ${ms(b.p95)}`, baseline: `top-3 ${b.hits}/${b.planted}`, ratio: `Satchel ${faster(b.p50, f.satchel.p50)}`, target: b.note ?? '', met: undefined });
      }
    } else unavailable('search', size, s.search);

    if (s.suggest.ok) {
      const f = s.suggest.value;
      const recall = (['exact', 'part', 'reformatted', 'embedded'] as const).map((kind) => `${kind} ${f.reuse[kind].hits}/${f.reuse[kind].of}`).join(', ');
      miss({ figure: 'suggest (copy → decision) p50 / p95', size, satchel: `${ms(f.p50)} / ${ms(f.p95)}`, baseline: '—', ratio: '', target: j ? `p95 ≤ 5 ms${scaleNote}` : '', met: j ? f.p95 <= 5 : undefined }, '');
      rows.push({ figure: '  suggest reuse found (source named)', size, satchel: recall, baseline: `unrelated copies flagged: ${f.reuse.unrelated.hits}/${f.reuse.unrelated.of}`, ratio: '', target: '', met: undefined });
    } else unavailable('suggest', size, s.suggest);

    if (s.coldStart.ok && s.bareStart.ok) {
      const above = s.coldStart.value.firstAnswerMs - s.bareStart.value.firstAnswerMs;
      miss({ figure: 'cold start → first answered request', size, satchel: ms(s.coldStart.value.firstAnswerMs), baseline: `bare Koa ${ms(s.bareStart.value.firstAnswerMs)}`, ratio: `+${ms(above)}`, target: j ? `≤ 500 ms above${scaleNote}` : '', met: j ? above <= 500 : undefined },
        `Listening after ${ms(s.coldStart.value.listeningMs)}; first search answered after ${ms(s.coldStart.value.followUpMs ?? Number.NaN)}.`);
      if (s.coldStart.value.followUpMs !== undefined) {
        rows.push({ figure: '  cold start → first search answered', size, satchel: ms(s.coldStart.value.followUpMs), baseline: '', ratio: '', target: '', met: undefined });
      }
    } else {
      unavailable('cold start', size, s.coldStart.ok ? s.bareStart : s.coldStart);
    }

    if (s.memory.ok) {
      const m = s.memory.value;
      miss({ figure: 'host resident memory (loaded and searched)', size, satchel: mb(m.rssBytes), baseline: `corpus ${mb(m.corpusJsonBytes)} as JSON`, ratio: `${(m.rssBytes / m.corpusJsonBytes).toFixed(2)}× corpus`, target: j ? `≤ 150 MB${scaleNote}` : '', met: j ? m.rssBytes <= 150 * 2 ** 20 : undefined },
        `Peak RSS ${mb(m.peakBytes)}.`);
    } else unavailable('memory', size, s.memory);

    semanticRows(s, size);

    if (s.fanout.ok) {
      const f = s.fanout.value;
      miss({ figure: `change fan-out to ${f.subscribers} WebSocket subscribers p50 / p95`, size, satchel: `${ms(f.p50)} / ${ms(f.p95)}`, baseline: `update ack ${ms(f.updateAckMs)}`, ratio: '', target: j ? `p95 ≤ 20 ms${scaleNote}` : '', met: j ? f.p95 <= 20 && f.missed === 0 : undefined },
        `The update request alone takes ${ms(f.updateAckMs)} (median); ${f.missed} frames missed; first frames of ${mb(f.firstFrameBytes)} took ${ms(f.connectMs)} to reach all subscribers.`);
    } else unavailable('fan-out', size, s.fanout);
  }

  function semanticRows(s: SizeResult, size: string): void {
    if (s.quality) {
      if (s.quality.ok) {
        const f = s.quality.value;
        const meaning = f.sets.filter((set) => !set.name.startsWith('lexical'));
        const n = meaning.reduce((sum, set) => sum + set.queries, 0);
        const at5 = (pick: (set: (typeof meaning)[number]) => number) => meaning.reduce((sum, set) => sum + pick(set) * set.queries, 0) / n;
        const hybrid = at5((set) => set.hybrid.at5);
        miss({ figure: `search by meaning: recall@5 of ${n} queries in other words (hybrid, ${f.model})`, size, satchel: pct(hybrid), baseline: `lexical ${pct(at5((set) => set.lexical.at5))}`, ratio: `vectors only ${pct(at5((set) => set.vectors.at5))}`, target: `≥ ${pct(HYBRID_RECALL_GOAL)}`, met: hybrid >= HYBRID_RECALL_GOAL },
          `search by meaning at ${size}: the figures per query set and the back-fill are printed by npm run bench -- --only-quality (docs/search.md).`);
        rows.push({ figure: '  back-fill of every snippet (snippets/s); hybrid search p50 / p95, query vector made', size, satchel: `${f.backfillPerSecond.toFixed(1)}/s; ${ms(f.hybridLatency.p50)} / ${ms(f.hybridLatency.p95)}`, baseline: `lexical ${ms(f.lexicalLatency.p50)} / ${ms(f.lexicalLatency.p95)}`, ratio: '', target: '', met: undefined });
        rows.push({ figure: '  resident memory with the model loaded: host; model process', size, satchel: `${mb(f.hostRssAfter)}; ${mb(f.modelRss)}`, baseline: `host before ${mb(f.hostRssBefore)}`, ratio: '', target: '', met: undefined });
      } else unavailable('search by meaning', size, s.quality);
    }
    if (s.semantic.ok) {
      const f = s.semantic.value;
      rows.push({ figure: `hybrid search p50 / p95 over HTTP, new queries (${f.dimension}-d test model, synthetic vectors)`, size, satchel: `${ms(f.hybrid.p50)} / ${ms(f.hybrid.p95)}`, baseline: `lexical ${ms(f.lexical.p50)} / ${ms(f.lexical.p95)}`, ratio: `+${ms(f.hybrid.p50 - f.lexical.p50)} p50`, target: '', met: undefined });
      rows.push({ figure: '  hybrid search p50 / p95, repeated queries (vector reused)', size, satchel: `${ms(f.hybridRepeated.p50)} / ${ms(f.hybridRepeated.p95)}`, baseline: '', ratio: '', target: '', met: undefined });
      rows.push({ figure: `  brute-force cosine scan alone (${f.vectors} × ${f.dimension}, in-process)`, size, satchel: `p50 ${ms(f.scan.p50)}, p95 ${ms(f.scan.p95)}`, baseline: '', ratio: '', target: '', met: undefined });
      rows.push({ figure: '  embedding model load with stored vectors', size, satchel: `${ms(f.loadMs)}, host RSS +${mb(Math.max(0, f.rssDeltaBytes))}`, baseline: `health max ${ms(f.healthMaxMs)} meanwhile`, ratio: '', target: '', met: undefined });
    } else unavailable('hybrid search', size, s.semantic);
  }

  function globalRows(): void {
    if (results.create.ok) {
      const { satchel, bareKoa } = results.create.value;
      const ratio = satchel.perSecond / bareKoa.perSecond;
      miss({ figure: `create throughput (durable, ${satchel.concurrency} in flight)`, size: 'empty store', satchel: `${satchel.perSecond.toFixed(0)}/s`, baseline: `bare Koa ${bareKoa.perSecond.toFixed(0)}/s`, ratio: pct(ratio), target: '≥ 40%', met: ratio >= 0.4 },
        `${(1000 / satchel.perSecond).toFixed(2)} ms per create at ${satchel.concurrency} in flight; each is answered after its group's WAL fdatasync, and does the JSON document, tags, an activity record, the search index (two FTS5 tables and the label table) and the connector's fingerprints; the benchmark's client shares the machine's cores.`);
    } else unavailable('create throughput', '—', results.create);
    if (results.download.ok) {
      const d = results.download.value;
      const ratio = d.satchelMBps / d.plainMBps;
      miss({ figure: 'model download on loopback with sha256', size: mb(d.bytes), satchel: `${d.satchelMBps.toFixed(0)} MB/s`, baseline: `undici stream-to-file ${d.plainMBps.toFixed(0)} MB/s`, ratio: pct(ratio), target: '≥ 80%', met: ratio >= 0.8 },
        `Measured through ${d.path}; the extra work is the streaming sha256 on the main thread, 1 MiB write batches (one in flight), progress frames, fsync and rename.`);
    } else unavailable('model download', '—', results.download);
    if (results.history.ok) {
      const h = results.history.value;
      for (const [kind, cost] of [['content edit', h.edit], ['rename', h.rename]] as const) {
        rows.push({
          figure: `asset update with its revision (${kind}, durable)`,
          size: `${k(h.assets)} assets`,
          satchel: `${ms(cost.withMs)}, ${cost.withCpuUs.toFixed(0)} µs CPU`,
          baseline: `no revisions ${ms(cost.withoutMs)}, ${cost.withoutCpuUs.toFixed(0)} µs CPU`,
          ratio: `${cost.withMs >= cost.withoutMs ? '+' : ''}${pct(cost.withMs / cost.withoutMs - 1)} time, ${cost.withCpuUs >= cost.withoutCpuUs ? '+' : ''}${(cost.withCpuUs - cost.withoutCpuUs).toFixed(0)} µs CPU`,
          target: '',
          met: undefined,
        });
      }
      for (const [what, g] of [['one asset', h.oneAsset], [`${k(h.manyAssets.assets)} assets`, h.manyAssets]] as const) {
        rows.push({
          figure: `store growth over ${k(g.updates)} content updates of ${what}`,
          size: '',
          satchel: `+${mb(g.grew)} (${g.revisions} revisions); compacted +${mb(g.grewCompacted)} (${g.revisionsCompacted})`,
          baseline: `no revisions +${mb(g.grewWithout)}; contents written ${mb(g.contentBytes)}`,
          ratio: `revisions +${mb(g.grew - g.grewWithout)}, compacted +${mb(g.grewCompacted - g.grewWithout)}`,
          target: '',
          met: undefined,
        });
      }
    } else unavailable('revisions', '—', results.history);
  }

  function scalingRows(): void {
    const ordered = [...results.sizes].sort((a, b) => a.size - b.size);
    for (let i = 1; i < ordered.length; i++) {
      const from = ordered[i - 1]!;
      const to = ordered[i]!;
      const growth = to.size / from.size;
      const pairs: Array<[string, number | undefined, number | undefined]> = [
        ['search p50', from.search.ok ? from.search.value.satchel.p50 : undefined, to.search.ok ? to.search.value.satchel.p50 : undefined],
        ['suggest p50', from.suggest.ok ? from.suggest.value.p50 : undefined, to.suggest.ok ? to.suggest.value.p50 : undefined],
      ];
      for (const [name, a, b] of pairs) {
        if (a === undefined || b === undefined) continue;
        const ratio = b / a;
        miss({ figure: `scaling: ${name} growth`, size: `${k(from.size)} → ${k(to.size)}`, satchel: times(ratio), baseline: `corpus ${times(growth)}`, ratio: '', target: `sub-linear (< ${times(growth)})`, met: ratio < growth },
          `${name} went from ${ms(a)} to ${ms(b)}.`);
      }
    }
  }

  const m = results.machine;
  const lines = [
    `Command: \`${results.command}\` — ${results.date}, ${(results.durationMs / 1000).toFixed(0)} s`,
    `Machine: ${m.cpus} × ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, Node ${m.node}, ${m.platform}; load average ${m.loadAverageBefore.map((l) => l.toFixed(1)).join('/')} before, ${m.loadAverageAfter.map((l) => l.toFixed(1)).join('/')} after`,
    `Latencies are the median over ${results.plan.runs} runs of each run's p50/p95; start times the median of ${results.plan.startRuns} starts.`,
    '',
    '| figure | size | Satchel | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.size} | ${r.satchel} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`),
    '',
    ...(notes.length ? ['Not met or unavailable:', ...notes.map((n) => `- ${n}`)] : ['Every target met.']),
  ];
  const text = lines.join('\n');
  console.log(`\n${text}`);
  return text;
}
