/**
 * A text longer than any snippet a door takes now (a store written before the content limit holds
 * 60 MB ones) is scanned a window at a time: the detector's rules over a 60 MB text on the worker
 * took the host's peak memory from 0.6 to 1.3 GB. Windows overlap by more than any value is long, so
 * each value lies whole in one of them; a value found in two is reported once.
 */
import { LIMITS } from '../limits.ts';
import type { SecretFinding } from './findings.ts';
import type { SecretTexts } from './detector.ts';

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

/**
 * The findings of `texts`, the code scanned by `scanWhole` a window at a time when it is longer than
 * one (the name and description with the first window), merged as findings of the whole text.
 */
export async function scanInWindows(texts: SecretTexts, scanWhole: (texts: SecretTexts) => Promise<SecretFinding[]>): Promise<SecretFinding[]> {
  const windows = windowsOf(texts.code.length);
  if (windows.length === 1) return scanWhole(texts);
  const inCode: SecretFinding[][] = [];
  let elsewhere: SecretFinding[] = [];
  for (const [start, end] of windows) {
    const part = await scanWhole({ ...(start === 0 ? texts : {}), code: texts.code.slice(start, end) });
    inCode.push(part.filter((finding) => finding.field === 'code'));
    if (start === 0) elsewhere = part.filter((finding) => finding.field !== 'code');
  }
  return [...mergedFindings(texts.code, windows, inCode), ...elsewhere];
}
