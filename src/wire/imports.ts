/**
 * POST /satchel/import (Satchel's own operation, not part of the Pieces interface): the request the
 * CLI and the extension send and the route parses, and the NDJSON lines it answers with.
 */
import { z } from 'zod';
import { IMPORT_FORMATS } from '../core/import/formats.ts';
import type { ImportProgress, ImportSummary } from '../core/import/importer.ts';
import { lazy, ndjson, post } from './operation.ts';
import type { LongOperationLine } from './longOperation.ts';

const formatSchema = lazy(() => z.enum(IMPORT_FORMATS));

/** Annotations or anchors of one record (a Pieces snippet's comments and summaries; the files it belongs to). */
const MAX_ATTACHMENTS = 1000;
const idSchema = lazy(() => z.string().min(1).max(256));
const applicationSchema = lazy(() => z.object({
  id: z.string().max(256),
  name: z.string().max(256),
  version: z.string().max(256),
  platform: z.string().max(64),
  onboarded: z.boolean(),
  privacy: z.string().max(64),
}));
const annotationSchema = lazy(() => z.object({
  id: idSchema(),
  type: z.enum(['UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT']),
  text: z.string(),
  created: z.string().max(64),
  updated: z.string().max(64),
}));
const anchorSchema = lazy(() => z.object({
  id: idSchema(),
  type: z.enum(['UNKNOWN', 'FILE', 'DIRECTORY']),
  fullpath: z.string().max(8192),
  name: z.string().max(4096).optional(),
  platform: z.string().max(64).optional(),
  pointId: idSchema(),
  created: z.string().max(64),
  updated: z.string().max(64),
}));

/** A snippet a caller already read from a file too large to send whole (bounds are checked again on import). */
const snippetSchema = lazy(() => z.object({
  name: z.string().max(4096),
  text: z.string(),
  language: z.string().max(64).optional(),
  tags: z.array(z.string().max(4096)).max(256).readonly().default([]),
  description: z.string().optional(),
  syntax: z.boolean().optional(),
  prefixes: z.array(z.string().max(4096)).max(256).readonly().optional(),
  /** A Satchel vault's record (src/core/sync/vaultFormat.ts): the asset keeps its id, times, websites and favorite. */
  record: z
    .object({
      id: z.string().min(1).max(256),
      created: z.string().max(64),
      updated: z.string().max(64),
      websites: z.array(z.object({ url: z.string().max(8192), name: z.string().max(4096) })).max(256).readonly(),
      favorited: z.boolean(),
      bytes: z.array(z.number().int().min(0).max(255)).readonly().optional(),
      /** What a Pieces library's record keeps besides (src/core/import/piecesRecords.ts). */
      application: applicationSchema().optional(),
      annotations: z.array(annotationSchema()).max(MAX_ATTACHMENTS).readonly().optional(),
      anchors: z.array(anchorSchema()).max(MAX_ATTACHMENTS).readonly().optional(),
    })
    .optional(),
}));

const timeSchema = lazy(() => z.string().max(64));
/** A Satchel vault's conversation (src/core/sync/vaultConversations.ts): written with its ids and times. */
const conversationSchema = lazy(() => z.object({
  id: z.string().min(1).max(256),
  name: z.string().max(4096).optional(),
  type: z.string().max(64),
  favorited: z.boolean(),
  assets: z.array(z.string().max(256)).max(10_000).readonly(),
  websites: z.array(z.object({ url: z.string().max(8192), name: z.string().max(4096) })).max(256).readonly(),
  created: timeSchema(),
  updated: timeSchema(),
  messages: z
    .array(z.object({ id: z.string().min(1).max(256), role: z.string().max(64), sentiment: z.string().max(64).optional(), created: timeSchema(), updated: timeSchema(), text: z.string() }))
    .max(100_000)
    .readonly(),
}));

const importRequest = lazy(() => z
  .object({
    files: z.array(z.object({ name: z.string().min(1).max(4096), content: z.string() })).max(10_000).default([]),
    parts: z
      .array(
        z.object({
          name: z.string().min(1).max(4096),
          format: formatSchema(),
          snippets: z.array(snippetSchema()).max(50_000),
          conversations: z.array(conversationSchema()).max(10_000).readonly().optional(),
        }),
      )
      .max(100)
      .default([]),
    format: formatSchema().optional(),
    batchSize: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((request) => request.files.length + request.parts.length > 0, { message: 'give files (name and content) or parts', path: ['files'] }));

/** Which Pieces OS to read: `url` (on this machine), or the one found on Pieces OS's ports. */
const piecesImportRequest = lazy(() => z.object({
  url: z.string().min(1).max(2048).optional(),
  batchSize: z.number().int().min(1).max(10_000).optional(),
}));

export const importOperations = {
  /** Answers progress lines as batches are written, then a summary or an error line. */
  import: post('/satchel/import', ndjson<ImportLine>(), 'import request', importRequest),
  /**
   * Imports a running Pieces OS's library over its interface, read by the host (src/core/import/piecesOs.ts):
   * progress lines, then the summary (its `source` names the Pieces OS read) or an error line.
   */
  importPieces: post('/satchel/import/pieces', ndjson<ImportLine>(), 'Pieces import request', piecesImportRequest),
} as const;

/** One line of the reply. */
export type ImportLine = LongOperationLine<ImportProgress, 'summary', ImportSummary>;
