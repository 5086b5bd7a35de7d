/**
 * Progress on the command line: one line redrawn in place on a terminal (at most every 100 ms), or
 * a line per change when the output is not a terminal (a log keeps every step).
 */
import type { ImportProgress } from '../core/import/importer.ts';
import { progressShare } from '../core/import/formats.ts';
import { countText } from '../core/countText.ts';

const WIDTH = 30;
const REDRAW_MS = 100;

/** `[#####.....]` for a share from 0 to 1. */
export function bar(share: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}]`;
}

export class ProgressLine {
  private readonly out: NodeJS.WriteStream;
  readonly started = performance.now();
  private drawn = 0;
  private lastLine = '';

  constructor(out: NodeJS.WriteStream = process.stderr) {
    this.out = out;
  }

  /** Draws `line()` unless the terminal was redrawn less than REDRAW_MS ago (then it is not even built). */
  show(line: () => string): void {
    const now = performance.now();
    if (this.out.isTTY && now - this.drawn < REDRAW_MS) return;
    this.drawn = now;
    const text = line();
    if (this.out.isTTY) this.out.write(`\r${text.slice(0, (this.out.columns ?? 120) - 1)}\x1b[K`);
    else if (text !== this.lastLine) this.out.write(`${text}\n`);
    this.lastLine = text;
  }

  /** Ends the line so what follows starts on its own. */
  done(): void {
    if (this.out.isTTY && this.lastLine !== '') this.out.write('\n');
    this.lastLine = '';
  }
}

/** An import's progress: snippets done of those found, new, duplicates, failures, rate and file. */
export class ProgressBar {
  private readonly line: ProgressLine;

  constructor(out: NodeJS.WriteStream = process.stderr) {
    this.line = new ProgressLine(out);
  }

  update(progress: ImportProgress): void {
    this.line.show(() => {
      const done = progress.imported + progress.updated + progress.duplicates;
      const rate = Math.round(progress.imported / Math.max((performance.now() - this.line.started) / 1000, 0.001));
      const files = progress.files !== undefined && progress.files > 1 ? ` · file ${Math.min(progress.filesDone + 1, progress.files)}/${progress.files}` : '';
      return (
        `${bar(progressShare(progress))} ${countText(done)}/${countText(progress.found)} snippets` +
        ` · ${countText(progress.imported)} new${progress.updated > 0 ? ` · ${countText(progress.updated)} updated` : ''}` +
        ` · ${countText(progress.duplicates)} duplicates · ${progress.failed} failed` +
        ` · ${countText(rate)}/s${files}`
      );
    });
  }

  done(): void {
    this.line.done();
  }
}
