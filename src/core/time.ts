import { randomFillSync, randomUUID } from 'node:crypto';
import type { GroupedTimestamp } from './piecesTypes.ts';

/** A wire timestamp for now (or for `date`), ISO-8601 UTC as the client sends and parses it. */
export function stamp(date: Date = new Date()): GroupedTimestamp {
  return { value: date.toISOString(), readable: readable(date) };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Nov 29, 2026, 1:05 PM UTC": what Intl's en-US medium date and short time write, without Intl.
 * The first date formatter of a process pages in ICU's locale data, 8.5 MB of the data host's
 * resident memory for as long as it runs (docs/performance.md), for one fixed English pattern.
 */
function readable(date: Date): string {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'} UTC`;
}

/** A wire timestamp whose value is exactly `value` (a record made elsewhere: its time is never re-formatted). */
export function stampAt(value: string): GroupedTimestamp {
  const date = new Date(value);
  return { ...stamp(Number.isNaN(date.getTime()) ? new Date() : date), value };
}

export function newId(): string {
  return randomUUID();
}

let lastMs = 0;
let sequence = 0;
// Random bytes drawn 8 KiB at a time: one randomFillSync per id was 1 s of a 100k-snippet import.
const entropy = new Uint8Array(8192);
let entropyAt = entropy.length;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A time-ordered UUID (version 7, RFC 9562): 48 bits of milliseconds, a 12-bit sequence within
 * the millisecond, then 62 random bits. Ids made one after another sort one after another, so a
 * bulk write appends to the id-keyed B-trees (asset, format and link indexes) instead of landing
 * on random pages all over them, which is what a random UUID costs in a large store.
 */
export function newOrderedId(): string {
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // More than 4,096 ids in one millisecond: borrow the next one (ids stay ordered and unique).
    lastMs++;
    sequence = 0;
  }
  ms = lastMs;
  if (entropyAt + 8 > entropy.length) {
    randomFillSync(entropy);
    entropyAt = 0;
  }
  let random = '';
  for (let i = entropyAt; i < entropyAt + 8; i++) random += HEX[entropy[i]!]!;
  const variant = hex(0x8 | (entropy[entropyAt]! & 0x3), 1);
  entropyAt += 8;
  return `${hex(Math.floor(ms / 0x10000), 8)}-${hex(ms % 0x10000, 4)}-7${hex(sequence, 3)}-${variant}${random.slice(1, 4)}-${random.slice(4, 16)}`;
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

// RFC 3339's date-time (what Satchel writes and what the wire's times are): a date, a time, a zone.
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * `value` when it is an RFC 3339 time of a real date, else undefined. Date.parse alone takes
 * "March 7", "1" or "2020-02-31" (as March 2nd), which a hand-edited file may hold; stored as a
 * record's time they would reach every client, which parses ISO times only.
 */
export function rfc3339(value: string): string | undefined {
  if (!RFC_3339.test(value)) return undefined;
  const ms = Date.parse(value.replace(' ', 'T'));
  if (Number.isNaN(ms)) return undefined;
  // A day past its month's end parses as the next month's: the date written must be the date read.
  const local = value.slice(0, 10);
  const offset = /[+-]\d{2}:\d{2}$/.exec(value)?.[0];
  const shift = offset ? (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) : 0;
  return new Date(ms + shift * 60_000).toISOString().slice(0, 10) === local ? value : undefined;
}
