/**
 * The secrets detector's figures (docs/secrets.md), each printed as one JSON line:
 *   node --experimental-strip-types test/bench/secretsFigures.ts [--library 100000] [--creates 500]
 * - recall on the planted set (test/core/secrets/plantedSecrets.ts) and false positives on the
 *   bench corpus at 1k and 10k;
 * - false positives on real code: the project's node_modules (pinned by package-lock.json), files
 *   of up to 512 KiB, the first 6,000 in directory order;
 * - throughput: the 10k corpus snippet by snippet, and as texts of the largest size allowed;
 * - the largest snippet allowed scanned on the worker, with the loop's longest pause meanwhile;
 * - CPU added per create: creates with the scan off, then the scan of what they left pending;
 * - the one-off scan of a library of `--library` snippets written by the import path (BulkWriter).
 */
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadavg } from 'node:os';
import { Satchel } from '../../src/core/satchel.ts';
import { detectSecrets } from '../../src/core/secrets/detector.ts';
import { redactText } from '../../src/core/secrets/findings.ts';
import { SecretScanner } from '../../src/core/secrets/secretScanner.ts';
import { BulkWriter, type BulkAsset } from '../../src/core/assets/bulkWriter.ts';
import { LIMITS } from '../../src/core/limits.ts';
import type { ClassificationSpecific } from '../../src/core/piecesTypes.ts';
import { generateCorpus } from './corpus.ts';
import { removeDir, tempDataDir } from './processes.ts';
import { PLANTED } from '../core/secrets/plantedSecrets.ts';
import { TEST_AUTHOR } from '../support/authors.ts';
import { codeSeed } from '../support/assetFixtures.ts';

const { values } = parseArgs({ options: { library: { type: 'string', default: '100000' }, creates: { type: 'string', default: '500' } } });
const only = process.env.SECRETS_FIGURES_QUICK === '1';
const print = (figure: string, data: object): void => console.log(JSON.stringify({ figure, ...data, load: loadavg().map((l) => +l.toFixed(2)) }));
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

// Recall.
let found = 0;
for (const planted of PLANTED) {
  const findings = await detectSecrets({ code: planted.text });
  if (findings.length > 0 && !redactText(planted.text, findings).includes(planted.value)) found++;
}
print('recall', { planted: PLANTED.length, shapes: new Set(PLANTED.map((p) => p.shape)).size, found, recall: found / PLANTED.length });

// False positives and per-snippet throughput.
const corpus = generateCorpus(10_000);
for (const size of [1_000, 10_000]) {
  let flagged = 0;
  let chars = 0;
  const wall = performance.now();
  for (const asset of corpus.assets.slice(0, size)) {
    chars += asset.code.length + asset.name.length;
    if ((await detectSecrets({ code: asset.code, name: asset.name })).length > 0) flagged++;
  }
  const ms = performance.now() - wall;
  print('corpus', { snippets: size, flagged, mb: +(chars / 1e6).toFixed(2), ms: Math.round(ms), mbPerSecond: +(chars / 1e6 / (ms / 1000)).toFixed(2) });
}

// Real code: what the lockfile installed.
{
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (files.length < 6_000) walk(full);
      } else if (/\.(ts|js|mjs|cjs|json|md|ya?ml|py)$/.test(entry.name) && !entry.name.endsWith('.min.js')) files.push(full);
    }
  };
  walk('node_modules');
  const flagged = new Map<string, string[]>();
  let chars = 0;
  const wall = performance.now();
  for (const file of files.slice(0, 6_000)) {
    if (statSync(file).size > 512 * 1024) continue;
    const code = readFileSync(file, 'utf8');
    chars += code.length;
    const findings = await detectSecrets({ code });
    if (findings.length > 0) flagged.set(file, [...new Set(findings.map((f) => f.label))]);
  }
  const ms = performance.now() - wall;
  print('real code', { files: Math.min(files.length, 6_000), mb: +(chars / 1e6).toFixed(1), flaggedFiles: flagged.size, flagged: Object.fromEntries(flagged), mbPerSecond: +(chars / 1e6 / (ms / 1000)).toFixed(2) });
}

// Large texts: the corpus's code joined to the largest size allowed.
const joined = corpus.assets.map((a) => a.code).join('\n');
const largest = joined.repeat(Math.ceil(LIMITS.contentChars / joined.length)).slice(0, LIMITS.contentChars);
{
  const wall = performance.now();
  const findings = await detectSecrets({ code: largest });
  const ms = performance.now() - wall;
  print('largest on this thread', { chars: largest.length, findings: findings.length, ms: Math.round(ms), mbPerSecond: +(largest.length / 1e6 / (ms / 1000)).toFixed(2) });
}
{
  const scanner = new SecretScanner();
  await scanner.scan({ code: 'x'.repeat(64 * 1024) }); // the worker started
  let worst = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  const wall = performance.now();
  await scanner.scan({ code: largest });
  const ms = performance.now() - wall;
  clearInterval(ticker);
  scanner.dispose();
  print('largest on the worker', { chars: largest.length, ms: Math.round(ms), loopLongestPauseMs: Math.round(worst) });
}

// CPU added per create.
if (!only) {
  const dataDir = tempDataDir();
  const core = Satchel.open({ dataDir, secretsScan: false });
  try {
    const creates = Number(values.creates);
    const seeds = corpus.assets.slice(0, creates).map((a) => codeSeed(a.code, a.name, { ext: a.language }));
    const before = process.cpuUsage();
    for (const seed of seeds) await core.assets.writes.create(seed, { author: TEST_AUTHOR });
    const createMs = cpuMs(before);
    const scan = process.cpuUsage();
    await core.assets.secrets.scanPending();
    const scanMs = cpuMs(scan);
    print('cpu per create', { creates, createCpuMsEach: +(createMs / creates).toFixed(3), addedCpuMsEach: +(scanMs / creates).toFixed(3), addedShare: +(scanMs / createMs).toFixed(3) });
  } finally {
    await core.close();
    removeDir(dataDir);
  }
}

// The one-off scan of a library (what the upgrade leaves pending).
if (!only) {
  const size = Number(values.library);
  const big = generateCorpus(size);
  const dataDir = tempDataDir();
  const core = Satchel.open({ dataDir, secretsScan: false });
  try {
    const writer = new BulkWriter(core.context, core.assets.bulkTargets());
    const session = writer.begin();
    for (let start = 0; start < size; start += 2_000) {
      const batch: BulkAsset[] = big.assets.slice(start, start + 2_000).map((a) => ({ name: a.name, text: a.code, language: a.language as ClassificationSpecific, tags: [...a.tags] }));
      writer.write(batch, TEST_AUTHOR);
    }
    session.dispose();
    const pending = core.assets.secrets.progress().pending;
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const progress = await core.assets.secrets.scanPending();
    const ms = performance.now() - wall;
    print('one-off scan', { library: size, pending, left: progress.pending, flagged: core.assets.secrets.summary().flaggedSnippets, wallSeconds: +(ms / 1000).toFixed(1), cpuSeconds: +(cpuMs(cpu) / 1000).toFixed(1), perSecond: Math.round(pending / (ms / 1000)) });
  } finally {
    await core.close();
    removeDir(dataDir);
  }
}
