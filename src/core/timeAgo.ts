/**
 * How long ago a moment was, as a person reads it, in the two styles the interfaces use: `short`
 * in lists and tree items ("5 min ago", "3 d ago"), `long` in sentences ("5 minutes ago",
 * "yesterday", "3 days ago"). Pure, for the extension and the command line alike.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type AgeStyle = 'short' | 'long';

/** From `from` on (elapsed ms), whole `size`s are counted in `unit`; a step of size 0 says `unit` alone. */
type Step = readonly [from: number, size: number, unit: string];

const STEPS: Record<AgeStyle, readonly Step[]> = {
  // Each unit from its first whole one.
  short: [[MINUTE, MINUTE, 'min'], [HOUR, HOUR, 'h'], [DAY, DAY, 'd'], [7 * DAY, 7 * DAY, 'w'], [30 * DAY, 30 * DAY, 'mo'], [365 * DAY, 365 * DAY, 'y']],
  // Small counts of a larger unit read better than "1 week ago" for eight days: each from where it stops being odd.
  long: [[MINUTE, MINUTE, 'minute'], [HOUR, HOUR, 'hour'], [DAY, 0, 'yesterday'], [2 * DAY, DAY, 'day'], [14 * DAY, 7 * DAY, 'week'], [60 * DAY, 30 * DAY, 'month'], [365 * DAY, 365 * DAY, 'year']],
};

/** "just now", "5 min ago" / "5 minutes ago", …; undefined when `iso` is missing or no date. */
export function timeAgo(iso: string | undefined, now: number, style: AgeStyle): string | undefined {
  if (iso === undefined) return undefined;
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return undefined;
  // Lists count whole seconds (a moment 59.6 s ago is a minute ago there).
  const elapsed = style === 'short' ? Math.round(ms / 1000) * 1000 : ms;
  let step: Step | undefined;
  for (const candidate of STEPS[style]) if (elapsed >= candidate[0]) step = candidate;
  if (step === undefined) return 'just now';
  const [, size, unit] = step;
  if (size === 0) return unit;
  const count = Math.floor(elapsed / size);
  return `${count} ${unit}${style === 'long' && count !== 1 ? 's' : ''} ago`;
}
