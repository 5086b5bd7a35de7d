/**
 * What held the extension host's event loop in a CPU profile (phaseProfiler.ts): each stretch of
 * samples with no idle one between them lasting at least --min ms (a timer due in it runs that much
 * late), with the frames that took its time, by self time and by the outermost frame of the
 * extension's own bundle (what Satchel was doing, whoever called it).
 *
 *   node --experimental-strip-types test/bench/day/longTasks.ts FILE.cpuprofile|DIR [--min=20] [--top=8] [--match=extensionMain]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CallFrame, CpuProfile as Profile } from './activationProfile.ts';

export interface LongTask {
  readonly startMs: number;
  readonly ms: number;
  /** Frame label → ms of samples whose innermost frame it is. */
  readonly self: Map<string, number>;
  /** The outermost frame of the matched bundle on each sample's stack → ms (samples without one under "(not the extension)"). */
  readonly entry: Map<string, number>;
}

const IDLE = new Set(['(idle)']);

function label(frame: CallFrame): string {
  const where = frame.url ? `${basename(frame.url)}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

/** The long tasks of one profile, in order. */
export function longTasks(profile: Profile, minMs: number, match: string): LongTask[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const entryOf = new Map<number, string>();
  const entry = (id: number): string => {
    let found = entryOf.get(id);
    if (found !== undefined) return found;
    found = '(not the extension)';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url.includes(match)) found = label(frame);
    }
    entryOf.set(id, found);
    return found;
  };
  const tasks: LongTask[] = [];
  let time = profile.startTime;
  let current: { start: number; end: number; samples: { id: number; ms: number }[] } | undefined;
  const close = () => {
    if (current && (current.end - current.start) / 1000 >= minMs) {
      const self = new Map<string, number>();
      const entries = new Map<string, number>();
      for (const { id, ms } of current.samples) {
        const name = label(byId.get(id)!.callFrame);
        self.set(name, (self.get(name) ?? 0) + ms);
        const outer = entry(id);
        entries.set(outer, (entries.get(outer) ?? 0) + ms);
      }
      tasks.push({ startMs: (current.start - profile.startTime) / 1000, ms: (current.end - current.start) / 1000, self, entry: entries });
    }
    current = undefined;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const at = (time += profile.timeDeltas[i]!);
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) {
      close();
      continue;
    }
    current ??= { start: at, end: at, samples: [] };
    current.end = at + delta;
    current.samples.push({ id, ms: delta / 1000 });
  }
  close();
  return tasks;
}

function top(map: Map<string, number>, n: number): string {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, ms]) => `      ${ms.toFixed(1).padStart(7)} ms  ${name}`).join('\n');
}

function main(): void {
  const args = new Map(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const paths = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const minMs = Number(args.get('min') ?? 20);
  const n = Number(args.get('top') ?? 8);
  const match = args.get('match') ?? 'extensionMain';
  const files = paths.flatMap((path) => (statSync(path).isDirectory() ? readdirSync(path).filter((f) => f.endsWith('.cpuprofile')).sort().map((f) => join(path, f)) : [path]));
  for (const file of files) {
    const tasks = longTasks(JSON.parse(readFileSync(file, 'utf8')) as Profile, minMs, match);
    console.log(`${basename(file)}: ${tasks.length} stretches of ${minMs} ms or more`);
    for (const task of tasks.sort((a, b) => b.ms - a.ms).slice(0, n)) {
      console.log(`  at ${(task.startMs / 1000).toFixed(2)} s: ${task.ms.toFixed(1)} ms`);
      console.log(`    self:\n${top(task.self, n)}`);
      console.log(`    outermost frame of ${match}:\n${top(task.entry, n)}`);
    }
  }
}

if (process.argv[1]?.endsWith('longTasks.ts')) main();
