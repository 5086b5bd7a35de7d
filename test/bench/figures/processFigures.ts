/**
 * Figures that need fresh processes: cold start (process start → first answered request) and
 * create throughput, each against the bare Koa baseline started and driven the same way.
 */
import { BenchClient, forEachConcurrent } from '../client.ts';
import { removeDir, startChild, tempDataDir } from '../processes.ts';
import { median } from '../stats.ts';

export interface StartTimes {
  /** Median ms from spawn to the first answered request (GET /.well-known/health). */
  readonly firstAnswerMs: number;
  /** Median ms from spawn to the URL being printed (listening). */
  readonly listeningMs: number;
  /** Median ms from spawn to an answered search, when `followUp` was given. */
  readonly followUpMs?: number;
  readonly runs: number;
}

/** Starts `script` `runs` times; `args` gets each run's index. The process is stopped after each run. */
export async function measureStart(
  script: string,
  args: (run: number) => string[],
  runs: number,
  followUp?: string,
): Promise<StartTimes> {
  const first: number[] = [];
  const listening: number[] = [];
  const follow: number[] = [];
  for (let run = 0; run < runs; run++) {
    const spawned = performance.now();
    const child = await startChild(script, args(run));
    const client = new BenchClient(child.url, 1);
    try {
      await client.ok('GET', '/.well-known/health');
      first.push(performance.now() - spawned);
      listening.push(child.listeningMs);
      if (followUp) {
        await client.ok('GET', followUp);
        follow.push(performance.now() - spawned);
      }
    } finally {
      await client.close();
      await child.stop();
    }
  }
  return {
    firstAnswerMs: median(first),
    listeningMs: median(listening),
    ...(followUp ? { followUpMs: median(follow) } : {}),
    runs,
  };
}

export interface Throughput {
  /** Median requests per second over the runs. */
  readonly perSecond: number;
  readonly runs: number;
  readonly requests: number;
  readonly concurrency: number;
}

/**
 * Posts `bodies` to `path` on a fresh process per run (a fresh data directory for the host) with
 * `concurrency` requests in flight, after a short warm-up, and reports acknowledged requests/s.
 */
export async function measureThroughput(
  script: string,
  args: (dataDir: string) => string[],
  path: string,
  bodies: readonly unknown[],
  options: { runs: number; concurrency: number; warmup: number },
): Promise<Throughput> {
  const rates: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    const dataDir = tempDataDir();
    const child = await startChild(script, args(dataDir));
    const client = new BenchClient(child.url, options.concurrency);
    try {
      await forEachConcurrent(bodies.slice(0, options.warmup), options.concurrency, async (body) => void (await client.ok('POST', path, body)));
      const measured = bodies.slice(options.warmup);
      const started = performance.now();
      await forEachConcurrent(measured, options.concurrency, async (body) => void (await client.ok('POST', path, body)));
      rates.push(measured.length / ((performance.now() - started) / 1000));
    } finally {
      await client.close();
      await child.stop();
      removeDir(dataDir);
    }
  }
  return { perSecond: median(rates), runs: options.runs, requests: bodies.length - options.warmup, concurrency: options.concurrency };
}
