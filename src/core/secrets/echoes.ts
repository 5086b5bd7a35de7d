/**
 * A value found in one of a snippet's texts shows in its name or description without what let a rule
 * find it: a snippet named after its first line (`AWS_SECRET_ACCESS_KEY=PtYgjmUhBel31iEl2hpC…`, the
 * name cut short with an ellipsis) holds most of the value with no rule able to see it there, the rest
 * cut off. The doors hide those echoes too: wherever a found value's opening shows in the name or the
 * description, whole or cut at any length from ECHO_MIN_CHARS on (a value shorter than that only
 * whole) and with a letter and a digit in it, the part that shows is a finding of its own, under the
 * value's label.
 */
import type { SecretField, SecretFinding } from './findings.ts';

/** Eight characters of a value are no accident (a 40-character key's first eight are 48 bits of it). */
export const ECHO_MIN_CHARS = 8;

/** The texts a value can echo in: short ones, whole (the code is scanned with its context). */
const ECHO_FIELDS = ['name', 'description'] as const satisfies readonly SecretField[];

export interface EchoTexts {
  readonly code: string;
  readonly name?: string | undefined;
  readonly description?: string | undefined;
}

/**
 * `findings` and the echoes of their values in the name and the description that no finding there
 * covers yet. Linear in those texts: a place is looked at further only when the characters there begin
 * some value (its first ECHO_MIN_CHARS, or a shorter value's first), then as far as that value matches.
 */
export function withEchoes(texts: EchoTexts, findings: readonly SecretFinding[]): readonly SecretFinding[] {
  if (findings.length === 0) return findings;
  const values = FoundValues.of(findings.map((finding) => ({ value: (texts[finding.field] ?? '').slice(finding.start, finding.end), source: finding })));
  const echoes = ECHO_FIELDS.flatMap((field) => {
    const text = texts[field];
    return text ? values.echoesIn(text, field, findings.filter((finding) => finding.field === field)) : [];
  });
  return echoes.length === 0 ? findings : [...findings, ...echoes];
}

export interface FoundValue {
  readonly value: string;
  /** The finding that names it (its rule, label, category and severity go to its echoes). */
  readonly source: SecretFinding;
}

/**
 * Distinct values found, the long ones grouped by their first ECHO_MIN_CHARS characters and sorted in
 * each group (the longest opening of any of them at a place is that of one of the two next to where the
 * text there would sort), the short ones by themselves.
 */
export class FoundValues {
  private readonly byOpening = new Map<string, FoundValue[]>();
  private readonly short = new Map<string, FoundValue>();
  private readonly firsts = new Set<string>();

  private constructor() {}

  static of(found: Iterable<FoundValue>): FoundValues {
    const values = new FoundValues();
    const seen = new Set<string>();
    for (const entry of found) {
      const { value } = entry;
      if (value.length === 0 || seen.has(value)) continue;
      seen.add(value);
      values.firsts.add(value[0]!);
      if (value.length < ECHO_MIN_CHARS) {
        values.short.set(value, entry);
        continue;
      }
      const key = value.slice(0, ECHO_MIN_CHARS);
      const group = values.byOpening.get(key) ?? [];
      group.push(entry);
      values.byOpening.set(key, group);
    }
    for (const group of values.byOpening.values()) group.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return values;
  }

  /** The echoes in `text` (a `field` of a snippet, or a door's own string) that none of `covered` overlaps, each under its value's label. */
  echoesIn(text: string, field: SecretField, covered: readonly SecretFinding[] = []): SecretFinding[] {
    const echoes: SecretFinding[] = [];
    let line = 1;
    let counted = 0;
    // The spans come left to right: a finding overlaps one when it starts before its end and ends after its start.
    const byStart = [...covered].sort((a, b) => a.start - b.start);
    let taken = 0;
    let reach = -1;
    for (const echo of this.spansIn(text)) {
      for (; taken < byStart.length && byStart[taken]!.start < echo.end; taken++) reach = Math.max(reach, byStart[taken]!.end);
      if (reach > echo.start) continue;
      for (; counted < echo.start; counted++) if (text.charCodeAt(counted) === 10) line++;
      echoes.push({ ...echo.source, field, start: echo.start, end: echo.end, line });
    }
    return echoes;
  }

  /**
   * Each span of `text` that is a value's opening long enough to count, the longest at each place, left
   * to right. Linear in the text whatever the values: a place costs a lookup of its opening, a binary
   * search of that opening's group (each comparison as long as the span it finds, which is then
   * skipped) and at most ECHO_MIN_CHARS lookups of short values.
   */
  private *spansIn(text: string): Generator<{ start: number; end: number; source: SecretFinding }> {
    for (let at = 0; at < text.length; ) {
      let best: { end: number; source: SecretFinding } | undefined;
      if (this.firsts.has(text[at]!)) {
        const group = this.byOpening.get(text.slice(at, at + ECHO_MIN_CHARS));
        const longest = group === undefined ? undefined : longestIn(group, text, at);
        if (longest !== undefined && longest.end > at) best = longest;
        for (let length = Math.min(ECHO_MIN_CHARS - 1, text.length - at); best === undefined && length > 0; length--) {
          const whole = this.short.get(text.slice(at, at + length));
          if (whole !== undefined) best = { end: at + length, source: whole.source };
        }
      }
      if (best === undefined || !lettersAndDigits(text, at, best.end)) {
        at++;
        continue;
      }
      yield { start: at, end: best.end, source: best.source };
      at = best.end;
    }
  }
}

/**
 * Whether `text` holds a letter and a digit between `start` and `end`: what a value's opening must show to
 * count as its echo. A value a rule spans whole (a webhook's URL) begins like any URL: its `https://`, or
 * its host, in another website's URL is no piece of it.
 */
function lettersAndDigits(text: string, start: number, end: number): boolean {
  let letter = false;
  let digit = false;
  for (let i = start; i < end && !(letter && digit); i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letter = true;
  }
  return letter && digit;
}

/** The longest opening at `at` of the sorted `group`'s values (all begin as the text does there). */
function longestIn(group: readonly FoundValue[], text: string, at: number): { end: number; source: SecretFinding } {
  let low = 0;
  let high = group.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareAt(text, at, group[middle]!.value) < 0) high = middle;
    else low = middle + 1;
  }
  let best = { end: at, source: group[0]!.source };
  for (const neighbour of [group[low - 1], group[low]]) {
    if (neighbour === undefined) continue;
    const end = at + commonLength(text, at, neighbour.value);
    if (end > best.end) best = { end, source: neighbour.source };
  }
  return best;
}

/** How the text from `at` sorts against `value` (negative: before it); a value that is an opening of the text sorts before it. */
function compareAt(text: string, at: number, value: string): number {
  const length = commonLength(text, at, value);
  if (length === value.length) return 1;
  if (at + length === text.length) return -1;
  return text.charCodeAt(at + length) - value.charCodeAt(length);
}

function commonLength(text: string, at: number, value: string): number {
  let length = 0;
  while (length < value.length && at + length < text.length && text.charCodeAt(at + length) === value.charCodeAt(length)) length++;
  return length;
}

/**
 * The findings of each of `texts`, which a door sends together but scans one by one (a conversation's
 * name and messages, the strings of a Pieces answer): each text's own, and the echoes in it of every
 * value found in any of them. Scanned one after another, as the texts' order gives them.
 */
export async function findingsAcross(texts: readonly string[], scan: (text: string) => Promise<readonly SecretFinding[]>): Promise<SecretFinding[][]> {
  const own: Array<readonly SecretFinding[]> = [];
  for (const text of texts) own.push(await scan(text));
  const values = FoundValues.of(own.flatMap((findings, i) => findings.map((finding) => ({ value: texts[i]!.slice(finding.start, finding.end), source: finding }))));
  return own.map((findings, i) => [...findings, ...values.echoesIn(texts[i]!, 'code', findings)]);
}
