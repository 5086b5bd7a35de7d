/**
 * A one-line progress bar on a terminal (redrawn in place, at most every 100 ms), or a line per
 * update when the output is not a terminal (a log keeps every step).
 */
import type { ImportProgress } from '../core/import/importer.ts';
import { progressShare } from '../core/import/formats.ts';

const WIDTH = 30;
const REDRAW_MS = 100;

export class ProgressBar {
  private readonly out: NodeJS.WriteStream;
  private readonly started = performance.now();
  private drawn = 0;
  private lastLine = '';

  constructor(out: NodeJS.WriteStream = process.stderr) {
    this.out = out;
  }

  update(progress: ImportProgress): void {
    const now = performance.now();
    if (this.out.isTTY && now - this.drawn < REDRAW_MS) return;
    this.drawn = now;
    const done = progress.imported + progress.updated + progress.duplicates;
    const share = progressShare(progress);
    const filled = Math.round(share * WIDTH);
    const rate = Math.round(progress.imported / Math.max((now - this.started) / 1000, 0.001));
    const files = progress.files !== undefined && progress.files > 1 ? ` · file ${Math.min(progress.filesDone + 1, progress.files)}/${progress.files}` : '';
    const line =
      `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done.toLocaleString('en-US')}/${progress.found.toLocaleString('en-US')} snippets` +
      ` · ${progress.imported.toLocaleString('en-US')} new${progress.updated > 0 ? ` · ${progress.updated.toLocaleString('en-US')} updated` : ''}` +
      ` · ${progress.duplicates.toLocaleString('en-US')} duplicates · ${progress.failed} failed` +
      ` · ${rate.toLocaleString('en-US')}/s${files}`;
    if (this.out.isTTY) this.out.write(`\r${line.slice(0, (this.out.columns ?? 120) - 1)}\x1b[K`);
    else if (line !== this.lastLine) this.out.write(`${line}\n`);
    this.lastLine = line;
  }

  /** Ends the bar's line so what follows starts on its own. */
  done(): void {
    if (this.out.isTTY && this.lastLine !== '') this.out.write('\n');
    this.lastLine = '';
  }
}
