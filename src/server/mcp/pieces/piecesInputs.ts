/**
 * What the Pieces MCP tools share: the time filters (`created` / `updated`, ISO 8601 either end
 * open), the limits, and answers as Pieces gives them (a JSON document as the text, the same
 * document as structured content).
 */
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InvalidInputError } from '../../../core/errors.ts';
import type { Window } from '../../../core/search/recordSearch.ts';

export const timeRange = z
  .object({
    from: z.string().max(64).optional().describe('ISO 8601 UTC start, e.g. 2025-02-01T00:00:00Z (omit for no start).'),
    to: z.string().max(64).optional().describe('ISO 8601 UTC end (omit for no end).'),
  })
  .optional();

export const created = timeRange.describe('Only what was created in this range (extract_temporal_range turns "yesterday" into one).');
export const updated = timeRange.describe('Only what was last updated in this range.');

export function limitOf(max: number, fallback: number) {
  return z.number().int().min(1).max(max).optional().describe(`How many at most (1–${max}, default ${fallback}).`);
}

export const query = (max: number) => z.string().min(1).max(max).describe(`What to look for (1–${max} characters).`);

export const identifiers = z.array(z.string().min(1).max(200)).min(1).max(100).describe('Identifiers (1–100) from a search or material_identifiers.');

type Range = { readonly from?: string | undefined; readonly to?: string | undefined } | undefined;

/** The tools' two ranges as one window; a time that is not ISO 8601 is refused with the field it came in. */
export function windowOf(createdRange: Range, updatedRange: Range): Window {
  return {
    ...end('created.from', createdRange?.from, 'createdFrom'),
    ...end('created.to', createdRange?.to, 'createdTo'),
    ...end('updated.from', updatedRange?.from, 'updatedFrom'),
    ...end('updated.to', updatedRange?.to, 'updatedTo'),
  };
}

function end(field: string, value: string | undefined, key: keyof Window): Partial<Record<keyof Window, string>> {
  if (value === undefined || value.trim() === '') return {};
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new InvalidInputError(`${field}: ${JSON.stringify(value.slice(0, 64))} is not an ISO 8601 time (e.g. 2025-02-01T00:00:00Z)`);
  return { [key]: new Date(time).toISOString() };
}

/** A Pieces-shaped answer: the document as JSON text (what Pieces' own server returns) and as structured content. */
export function jsonResult(payload: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(payload, null, 2) }], structuredContent: payload };
}

/** The line every tool for a kind Satchel does not record answers with. */
export function unrecordedNote(what: string): string {
  return `Satchel does not record ${what}: it keeps snippets, memories, conversations, tags, annotations, anchors, websites and models, and captures nothing from the screen, audio, clipboard of other apps, people or windows. Nothing to return (this is not an error). Try ask_pieces_ltm or workstream_summaries_full_text_search.`;
}
