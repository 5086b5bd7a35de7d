/**
 * A text longer than any snippet a door takes now (a store written before the content limit holds
 * 60 MB ones) is scanned a window at a time: the detector's rules over a 60 MB text on the worker
 * took the host's peak memory from 0.6 to 1.3 GB. Windows overlap by more than any value is long, so
 * each value lies whole in one of them; a value found in two is reported once.
 */
import { LIMITS } from '../limits.ts';
import type { SecretFinding } from './findings.ts';

/** Characters of one window: the largest text a snippet may hold, which the detector is measured on. */
export const WINDOW_CHARS = LIMITS.contentChars;
/** How far windows overlap: a private key block is a few KiB; nothing the rules find comes near this. */
export const OVERLAP_CHARS = 64 * 1024;

/** The windows of `text` as [start, end) spans; one span when it fits in a window. */
export function windowsOf(length: number, window = WINDOW_CHARS, overlap = OVERLAP_CHARS): Array<readonly [number, number]> {
  if (length <= window) return [[0, length]];
  const spans: Array<readonly [number, number]> = [];
  for (let start = 0; ; start += window - overlap) {
    const end = Math.min(length, start + window);
    spans.push([start, end]);
    if (end === length) return spans;
  }
}

/**
 * The findings of each window of the code (`found[i]` for `windows[i]`, spans and lines relative to
 * it) as findings of the whole text: spans moved, lines counted in the whole text, one per value.
 */
export function mergedFindings(code: string, windows: ReadonlyArray<readonly [number, number]>, found: ReadonlyArray<readonly SecretFinding[]>): SecretFinding[] {
  const seen = new Set<string>();
  const merged: SecretFinding[] = [];
  windows.forEach(([offset], i) => {
    for (const finding of found[i] ?? []) {
      const start = finding.start + offset;
      const end = finding.end + offset;
      const key = `${finding.ruleId}\0${start}\0${end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push({ ...finding, start, end });
    }
  });
  merged.sort((a, b) => a.start - b.start);
  // Lines in one pass over the text, findings in order of their start.
  let line = 1;
  let at = 0;
  return merged.map((finding) => {
    for (; at < finding.start; at++) if (code.charCodeAt(at) === 10) line++;
    return { ...finding, line };
  });
}
