import { randomUUID } from 'node:crypto';
import type { GroupedTimestamp } from './wire.ts';

/** A wire timestamp for now (or for `date`), ISO-8601 UTC as the client sends and parses it. */
export function stamp(date: Date = new Date()): GroupedTimestamp {
  return { value: date.toISOString(), readable: readable(date) };
}

function readable(date: Date): string {
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

export function newId(): string {
  return randomUUID();
}
