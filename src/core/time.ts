import { randomUUID } from 'node:crypto';
import type { GroupedTimestamp } from './wire.ts';

/** A wire timestamp for now (or for `date`), ISO-8601 UTC as the client sends and parses it. */
export function stamp(date: Date = new Date()): GroupedTimestamp {
  return { value: date.toISOString(), readable: readable(date) };
}

// One formatter for the process: toLocaleString builds a new one on every call (~0.5 ms).
const readableFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

function readable(date: Date): string {
  return readableFormat.format(date) + ' UTC';
}

export function newId(): string {
  return randomUUID();
}
