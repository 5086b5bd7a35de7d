/**
 * Time phrases in a question ("yesterday", "last week", "the past 3 hours", "last Tuesday
 * afternoon", "back in August") as UTC ranges, in the user's time zone (the process's: Satchel
 * runs on the user's machine), through chrono-node. chrono finds a phrase and the moment it names;
 * the range is the span the phrase means: its day, its week (Monday first), month or year, the part
 * of the day it names, or from then until now for "past N hours". A range reaching past now ends
 * now, and one wholly in the future is dropped, each with a note: memories are of the past.
 */
import * as chrono from 'chrono-node';

/** Characters of a query read (what Pieces' tool takes). */
export const MAX_TEMPORAL_QUERY_CHARS = 300;

export interface TemporalRange {
  readonly from: string;
  readonly to: string;
  /** The words it was read from. */
  readonly text: string;
}

export interface TemporalRanges {
  readonly ranges: readonly TemporalRange[];
  /** Why a range was cut or dropped. */
  readonly note?: string | undefined;
}

const PARTS_OF_DAY: ReadonlyArray<readonly [RegExp, number, number]> = [
  [/\bmorning\b/i, 6, 12],
  [/\bnoon\b/i, 12, 13],
  [/\bafternoon\b/i, 12, 18],
  [/\bevening\b/i, 18, 24],
  [/\b(tonight|night)\b/i, 20, 24],
];

export function temporalRanges(query: string, now: Date = new Date()): TemporalRanges {
  const results = chrono.parse(query.slice(0, MAX_TEMPORAL_QUERY_CHARS), { instant: now }, { forwardDate: false });
  const ranges: TemporalRange[] = [];
  const notes: string[] = [];
  for (const result of results) {
    const span = spanOf(result, now);
    if (span.from.getTime() > now.getTime()) {
      notes.push(`"${result.text}" lies in the future and was left out`);
      continue;
    }
    let to = span.to;
    if (to.getTime() > now.getTime()) {
      to = now;
      notes.push(`"${result.text}" was cut at the current time`);
    }
    ranges.push({ from: span.from.toISOString(), to: to.toISOString(), text: result.text });
  }
  return { ranges, ...(notes.length > 0 ? { note: `${notes.join('; ')}.` } : {}) };
}

function spanOf(result: chrono.ParsedResult, now: Date): { from: Date; to: Date } {
  const text = result.text.toLowerCase();
  const start = result.start.date();
  if (/\b(past|last|previous)\s+(\d+|a|an|few|couple)\b/.test(text) && !/\b(week|month|year)\b/.test(text.replace(/\d+\s+(weeks|months|years)/, ''))) {
    return { from: start, to: now };
  }
  if (/\b(past|last|previous)\s+\d+\s+(weeks|months|years)\b/.test(text)) return { from: start, to: now };
  if (result.end) return { from: dayStart(start), to: dayEnd(result.end.date()) };
  if (/\bweek\b/.test(text)) {
    const from = dayStart(start);
    from.setDate(from.getDate() - ((from.getDay() + 6) % 7));
    const to = new Date(from);
    to.setDate(to.getDate() + 7);
    return { from, to: new Date(to.getTime() - 1) };
  }
  if (/\bmonth\b/.test(text) || (result.start.isCertain('month') && !result.start.isCertain('day'))) {
    const from = new Date(start.getFullYear(), start.getMonth(), 1);
    return { from, to: new Date(new Date(start.getFullYear(), start.getMonth() + 1, 1).getTime() - 1) };
  }
  if (/\byear\b/.test(text) || (result.start.isCertain('year') && !result.start.isCertain('month'))) {
    return { from: new Date(start.getFullYear(), 0, 1), to: new Date(new Date(start.getFullYear() + 1, 0, 1).getTime() - 1) };
  }
  for (const [pattern, fromHour, toHour] of PARTS_OF_DAY) {
    if (pattern.test(text)) {
      const from = dayStart(start);
      from.setHours(fromHour);
      const to = dayStart(start);
      to.setHours(toHour);
      return { from, to: new Date(to.getTime() - 1) };
    }
  }
  if (result.start.isCertain('hour')) {
    const from = new Date(start);
    from.setMinutes(result.start.isCertain('minute') ? from.getMinutes() : 0, 0, 0);
    const to = new Date(from);
    to.setHours(to.getHours() + 1);
    return { from, to: new Date(to.getTime() - 1) };
  }
  return { from: dayStart(start), to: dayEnd(start) };
}

function dayStart(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function dayEnd(date: Date): Date {
  return new Date(new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime() - 1);
}
