/**
 * A value found in one of a snippet's texts shows in its name or description without what let a rule
 * find it: a snippet named after its first line (`AWS_SECRET_ACCESS_KEY=PtYgjmUhBel31iEl2hpC…`, the
 * name cut short with an ellipsis) holds most of the value with no rule able to see it there, the rest
 * cut off. The doors hide those echoes too: wherever a found value's opening shows in the name or the
 * description, whole or cut at any length from ECHO_MIN_CHARS on (a value shorter than that only
 * whole), the part that shows is a finding of its own, under the value's label.
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
  const echoes: SecretFinding[] = [];
  for (const field of ECHO_FIELDS) {
    const text = texts[field];
    if (text) echoes.push(...values.echoesIn(text, field, findings.filter((finding) => finding.field === field)));
  }
  return echoes.length === 0 ? findings : [...findings, ...echoes];
}

export interface FoundValue {
  readonly value: string;
  /** The finding that names it (its rule, label, category and severity go to its echoes). */
  readonly source: SecretFinding;
}

/** Distinct values found, looked up by their first ECHO_MIN_CHARS characters (a shorter value by its first). */
export class FoundValues {
  private readonly byOpening = new Map<string, FoundValue[]>();
  private readonly shortByFirst = new Map<string, FoundValue[]>();
  private readonly firsts = new Set<string>();

  private constructor() {}

  static of(found: Iterable<FoundValue>): FoundValues {
    const values = new FoundValues();
    const seen = new Set<string>();
    for (const { value, source } of found) {
      if (value.length === 0 || seen.has(value)) continue;
      seen.add(value);
      values.firsts.add(value[0]!);
      const [map, key] = value.length >= ECHO_MIN_CHARS ? [values.byOpening, value.slice(0, ECHO_MIN_CHARS)] : [values.shortByFirst, value[0]!];
      const list = map.get(key) ?? [];
      list.push({ value, source });
      map.set(key, list);
    }
    return values;
  }

  /** The echoes in `text` (a `field` of a snippet, or a door's own string) that none of `covered` overlaps, each under its value's label. */
  echoesIn(text: string, field: SecretField, covered: readonly SecretFinding[] = []): SecretFinding[] {
    const echoes: SecretFinding[] = [];
    let line = 1;
    let counted = 0;
    for (const echo of this.spansIn(text)) {
      if (covered.some((finding) => finding.start < echo.end && echo.start < finding.end)) continue;
      for (; counted < echo.start; counted++) if (text.charCodeAt(counted) === 10) line++;
      echoes.push({ ...echo.source, field, start: echo.start, end: echo.end, line });
    }
    return echoes;
  }

  /** Each span of `text` that is a value's opening long enough to count, the longest at each place, left to right. */
  private *spansIn(text: string): Generator<{ start: number; end: number; source: SecretFinding }> {
    for (let at = 0; at < text.length; ) {
      let best: { end: number; source: SecretFinding } | undefined;
      if (this.firsts.has(text[at]!)) {
        const candidates = [...(this.byOpening.get(text.slice(at, at + ECHO_MIN_CHARS)) ?? []), ...(this.shortByFirst.get(text[at]!) ?? [])];
        for (const { value, source } of candidates) {
          let length = 0;
          while (length < value.length && at + length < text.length && text[at + length] === value[length]) length++;
          const counts = length === value.length || length >= ECHO_MIN_CHARS;
          if (counts && (best === undefined || at + length > best.end)) best = { end: at + length, source };
        }
      }
      if (best === undefined) {
        at++;
        continue;
      }
      yield { start: at, end: best.end, source: best.source };
      at = best.end;
    }
  }
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
