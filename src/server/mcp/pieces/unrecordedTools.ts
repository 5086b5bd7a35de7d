/**
 * The Pieces tools for kinds Satchel does not record (it captures no screen, audio, clipboard of
 * other apps, people or windows): each answers an empty result with a line saying so, never an
 * error, so an agent following a Pieces workflow moves on instead of retrying.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { created, identifiers, jsonResult, limitOf, query, unrecordedNote, updated } from './piecesInputs.ts';

export interface UnrecordedKind {
  readonly type: string;
  readonly prefix: string;
  readonly what: string;
  readonly fullText: boolean;
}

export const UNRECORDED_TYPES: readonly UnrecordedKind[] = [
  { type: 'WORKSTREAM_EVENTS', prefix: 'workstream_events', what: 'workstream events (screen, clipboard and audio captures)', fullText: true },
  { type: 'HINTS', prefix: 'hints', what: 'hints (suggested follow-up questions)', fullText: true },
  { type: 'PERSONS', prefix: 'persons', what: 'persons (contacts and collaborators)', fullText: true },
  { type: 'ENTITIES', prefix: 'entities', what: 'entities (organisations and teams)', fullText: true },
  { type: 'WORKSTREAM_PATTERN_ENGINE_SOURCES', prefix: 'wpe_sources', what: 'application sources of captured activity', fullText: true },
  { type: 'WORKSTREAM_PATTERN_ENGINE_SOURCE_WINDOWS', prefix: 'wpe_source_windows', what: 'windows of captured activity', fullText: true },
];

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerUnrecordedTools(server: McpServer): void {
  for (const kind of UNRECORDED_TYPES) {
    if (kind.fullText) {
      const extra: z.ZodRawShape =
        kind.type === 'WORKSTREAM_EVENTS'
          ? {
              application: z.string().max(500).optional(),
              window_title: z.string().max(500).optional(),
              url: z.string().max(2048).optional(),
              context_type: z.enum(['CLIPBOARD', 'VISION', 'AUDIO']).optional(),
              audio_type: z.enum(['INPUT', 'OUTPUT']).optional(),
            }
          : {};
      server.registerTool(
        `${kind.prefix}_full_text_search`,
        {
          title: `Search ${kind.prefix.replace(/_/g, ' ')} (not recorded by Satchel)`,
          description: `Satchel does not record ${kind.what}: always an empty result. Kept so that Pieces workflows run unchanged.`,
          inputSchema: { query: query(1000), limit: limitOf(200, 25), created, updated, ...extra },
          annotations: READ_ONLY,
        },
        (args) => jsonResult({ query: args.query, count: 0, results: [], note: unrecordedNote(kind.what) }),
      );
    }
    server.registerTool(
      `${kind.prefix}_batch_snapshot`,
      {
        title: `Read ${kind.prefix.replace(/_/g, ' ')} by id (not recorded by Satchel)`,
        description: `Satchel does not record ${kind.what}: every identifier is answered as missing.`,
        inputSchema: { identifiers },
        annotations: READ_ONLY,
      },
      (args) => {
        const ids = [...new Set(args.identifiers)];
        return jsonResult({ material_type: kind.type, count: 0, requested: ids.length, items: [], missing_ids: ids, note: unrecordedNote(kind.what) });
      },
    );
  }
}
