/**
 * CPU profiles of the day's phases, taken inside the extension host (`npm run bench:day -- --profile=DIR`):
 * V8's sampling profiler through node:inspector, started before a phase and written as
 * `<n>-<phase>.cpuprofile` after it (open in Chrome's DevTools, or summarise with longTasks.ts). Off
 * by default: profiling costs the extension host a little, so the delay figures of a profiled run
 * are for diagnosis, not the tables.
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** 0.5 ms: a 20 ms hold is 40 samples, enough to tell what held it. */
const SAMPLING_INTERVAL_US = 500;

export class PhaseProfiler {
  private readonly session = new Session();
  private readonly dir: string;
  private count = 0;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    this.session.connect();
  }

  async around<T>(phase: string, run: () => Promise<T>): Promise<T> {
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await this.session.post('Profiler.start');
    try {
      return await run();
    } finally {
      const { profile } = await this.session.post('Profiler.stop');
      const name = `${String(++this.count).padStart(2, '0')}-${phase.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`;
      writeFileSync(join(this.dir, name), JSON.stringify(profile));
    }
  }

  dispose(): void {
    this.session.disconnect();
  }
}
