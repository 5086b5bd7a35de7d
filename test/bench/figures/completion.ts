/**
 * IntelliSense from the library: the completion provider's latency, measured the way VS Code calls
 * it. The corpus is imported as VS Code snippet files (tags as prefixes, the language as scope:
 * every asset gets snippet facts), then words are typed a character at a time, each keystroke one
 * call of the provider's logic (`provideSnippets`: the typed word read from the line, the request
 * to the host, its reply turned into items) from the call to the items. Keystrokes the provider
 * answers without asking the host (one character typed) are counted apart, not timed; the host's
 * background work after the import (its index merge) is waited for first. Also: the first
 * completion after the import, and right after a restart (before the warm-up has read the label
 * index and the language table: the call reads them).
 */
import type { Built } from '../processes.ts';
import { cpuMsOf, removeDir, startChild, tempDataDir } from '../processes.ts';
import type { Corpus } from '../corpus.ts';
import { snippetFiles } from './importFigure.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { COMPLETION_LIMIT, provideSnippets, type CandidateSource, type CompletionInput, type CompletionSettings } from '../../../src/extension/completion/completionSource.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { medianOfRuns, type Latency } from '../stats.ts';

export interface CompletionFigure extends Latency {
  /** Keystrokes answered without a request (a single character typed). */
  readonly unasked: number;
  readonly meanItems: number;
  /** CPU time per timed call (first run), ms: the host's, and the provider's side (client and items). Unaffected by load. */
  readonly hostCpuMs: number;
  readonly providerCpuMs: number;
  /** The first call after the import: the host reads its language table whole. */
  readonly firstMs: number;
  /** The first call after the host restarted on the same store. */
  readonly restartFirstMs: number;
  readonly slowest: readonly { readonly typed: string; readonly ms: number }[];
}

export interface CompletionPlan {
  readonly runs: number;
  /** Assets whose words are typed. */
  readonly sessions: number;
}

/** One keystroke: what the editor holds before the cursor. */
interface Keystroke {
  readonly input: CompletionInput;
  readonly settings: CompletionSettings;
}

const plain: CompletionSettings = { enabled: true, triggerPrefix: '' };
const triggered: CompletionSettings = { enabled: true, triggerPrefix: 'sat:' };

export async function measureCompletion(built: Built, corpus: Corpus, hostArgs: (dataDir: string) => string[], plan: CompletionPlan): Promise<CompletionFigure> {
  const dataDir = tempDataDir();
  let host = await startChild(built.host, hostArgs(dataDir));
  let satchel = new SatchelClient(host.url);
  try {
    const summary = await satchel.imports.importFiles(snippetFiles(corpus));
    if (summary.failed > 0 || summary.imported === 0) throw new Error(`the import failed: ${summary.failures[0]?.reason ?? 'nothing imported'}`);
    const keystrokes = typing(corpus, plan.sessions);
    const first = keystrokes.find((k) => k.input.wordBefore.length >= 2)!;
    const firstMs = await timed(satchel, first).then((r) => r.ms);
    // The import's index merge and checkpoints run in the background for a while: measured after them.
    await settled(host.pid);

    const runs: number[][] = [];
    let unasked = 0;
    let items = 0;
    let timedCalls = 0;
    const slowest: Array<{ typed: string; ms: number }> = [];
    let hostCpuMs = 0;
    let providerCpuMs = 0;
    for (let run = 0; run < plan.runs; run++) {
      const times: number[] = [];
      const hostCpu = cpuMsOf(host.pid);
      const ownCpu = process.cpuUsage();
      for (const keystroke of keystrokes) {
        const result = await timed(satchel, keystroke);
        if (!result.asked) {
          if (run === 0) unasked++;
          continue;
        }
        times.push(result.ms);
        if (run === 0) {
          timedCalls++;
          items += result.items;
          slowest.push({ typed: keystroke.input.lineBefore.trim(), ms: result.ms });
        }
      }
      runs.push(times);
      if (run === 0) {
        const own = process.cpuUsage(ownCpu);
        hostCpuMs = (cpuMsOf(host.pid) - hostCpu) / Math.max(1, timedCalls);
        providerCpuMs = (own.user + own.system) / 1000 / Math.max(1, timedCalls);
      }
    }

    satchel.dispose();
    await host.stop();
    host = await startChild(built.host, hostArgs(dataDir));
    satchel = new SatchelClient(host.url);
    const restartFirstMs = (await timed(satchel, first)).ms;
    return {
      ...medianOfRuns(runs),
      unasked,
      hostCpuMs,
      providerCpuMs,
      meanItems: items / Math.max(1, timedCalls),
      firstMs,
      restartFirstMs,
      slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 3),
    };
  } finally {
    satchel.dispose();
    await host.stop();
    removeDir(dataDir);
  }
}

/** Waits until the process has used under 3% of a core for two seconds in a row (at most two minutes). */
async function settled(pid: number): Promise<void> {
  const deadline = performance.now() + 120_000;
  let quiet = 0;
  for (let last = cpuMsOf(pid); quiet < 2 && performance.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuMsOf(pid);
    quiet = now - last <= 30 ? quiet + 1 : 0;
    last = now;
  }
}

async function timed(satchel: SatchelClient, keystroke: Keystroke): Promise<{ ms: number; asked: boolean; items: number }> {
  let asked = false;
  const source: CandidateSource = (query, language, signal) => {
    asked = true;
    return satchel.snippets.completions(query, { language, limit: COMPLETION_LIMIT, signal });
  };
  const started = performance.now();
  const answer = await provideSnippets(keystroke.input, keystroke.settings, source, new AbortController().signal);
  const ms = performance.now() - started;
  return { ms, asked, items: answer?.items.length ?? 0 };
}

/**
 * Words typed a character at a time: for assets spread over the corpus, a prefix (its first tag)
 * and the first word of its name, in a document of its language; every fourth after `sat:`; and
 * Ctrl+Space on an empty line.
 */
function typing(corpus: Corpus, sessions: number): Keystroke[] {
  const keystrokes: Keystroke[] = [];
  const step = Math.max(1, Math.floor(corpus.assets.length / sessions));
  for (let i = 0, session = 0; i < corpus.assets.length && session < sessions; i += step, session++) {
    const asset = corpus.assets[i]!;
    const languageId = languageOf(asset.language as ClassificationSpecific)?.vscodeId ?? 'plaintext';
    const words = [asset.tags[0], asset.name.split(/[^\p{L}\p{N}_]+/u).find(Boolean)].filter((word): word is string => word !== undefined);
    for (const word of words) {
      const settings = session % 4 === 3 ? triggered : plain;
      for (let length = 1; length <= Math.min(word.length, 8); length++) {
        const typed = word.slice(0, length);
        const lineBefore = `    const value = ${settings.triggerPrefix}${typed}`;
        keystrokes.push({ input: { lineBefore, wordBefore: typed, languageId, invoked: false }, settings });
      }
    }
    if (session % 8 === 0) keystrokes.push({ input: { lineBefore: '    ', wordBefore: '', languageId, invoked: true }, settings: plain });
  }
  return keystrokes;
}
