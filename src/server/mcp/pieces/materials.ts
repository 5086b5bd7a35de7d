/**
 * The kinds of material the Pieces MCP tools name, as Satchel holds them: how each is searched by
 * words, listed by time, and read by id. Workstream summaries are memories (and any summaries a
 * Pieces client stored); the kinds Satchel does not record have no entry here (unrecorded.ts).
 */
import type { Satchel } from '../../../core/satchel.ts';
import { DomainError } from '../../../core/errors.ts';
import { RecordSearch, within, type SearchedKind, type Window } from '../../../core/search/recordSearch.ts';
import { SNAPSHOT_CHARS, summaryObject } from './memoryObjects.ts';

export interface Found {
  readonly id: string;
  readonly score: number;
  readonly exact: boolean;
}

export interface Material {
  /** The name material_identifiers takes. */
  readonly type: string;
  /** The tools' prefix: `${prefix}_full_text_search`, `${prefix}_batch_snapshot`. */
  readonly prefix: string;
  /** The key a search result holds the object under (`tag`, `summary`…). */
  readonly key: string;
  /** What it is, for descriptions. */
  readonly what: string;
  /** Words in it, best first. */
  search?(query: string, limit: number, window: Window, annotationType?: string): Promise<Found[]> | Found[];
  /** Ids, newest first. */
  ids(limit: number, window: Window): Promise<string[]> | string[];
  /** The objects of those ids that exist. */
  snapshot(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> | Map<string, Record<string, unknown>>;
}

/** Each id read alone; one that names nothing (a domain NotFound) is left out. */
function each(ids: readonly string[], read: (id: string) => unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const id of ids) {
    try {
      out.set(id, read(id) as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return out;
}

function recordKind(records: RecordSearch, kind: SearchedKind, fields: Omit<Material, 'search' | 'ids' | 'snapshot'>, read: (id: string) => unknown): Material {
  return {
    ...fields,
    search: (query, limit, window, annotationType) => records.search(kind, query, limit, window, annotationType),
    ids: (limit, window) => records.ids(kind, limit, window),
    snapshot: (ids) => each(ids, read),
  };
}

export function materialsOf(core: Satchel): Material[] {
  const records = new RecordSearch(core.context.database);
  const related = core.conversations.records;
  const summaries: Material = {
    type: 'WORKSTREAM_SUMMARIES',
    prefix: 'workstream_summaries',
    key: 'summary',
    what: 'memories (what create_pieces_memory saved; Pieces keeps them as workstream summaries)',
    search: (query, limit, window) => {
      const memories = core.assets.searches
        .scoredIds(query, { limit: limit * 2, kept: (id) => core.memories.isMemory(id) })
        .filter((hit) => inWindow(core, hit.id, window));
      return [...memories, ...records.search('workstream_summary', query, limit, window)].sort((a, b) => b.score - a.score).slice(0, limit);
    },
    ids: (limit, window) => [...core.memories.newest(limit, window), ...records.ids('workstream_summary', limit, window)].slice(0, limit),
    snapshot: async (ids) => {
      const views = await core.memories.views(ids, SNAPSHOT_CHARS);
      const out = new Map<string, Record<string, unknown>>(views.map((view) => [view.id, summaryObject(view)]));
      for (const [id, summary] of each(ids.filter((id) => !out.has(id)), (id) => related.workstreamSummary(id))) out.set(id, summary);
      return out;
    },
  };
  const conversations: Material = {
    type: 'CONVERSATIONS',
    prefix: 'conversations',
    key: 'conversation',
    what: 'Copilot conversations',
    search: (query, limit, window) => records.search('conversation', query, limit, window),
    ids: (limit, window) => records.ids('conversation', limit, window),
    snapshot: (ids) => each(ids, (id) => core.conversations.reads.get(id, false)),
  };
  const messages: Material = {
    type: 'CONVERSATION_MESSAGES',
    prefix: 'conversation_messages',
    key: 'message',
    what: 'messages of Copilot conversations',
    search: (query, limit, window) => records.messages(query, limit, window),
    ids: (limit, window) => records.messageIds(limit, window),
    // Each with its text, cut at SNAPSHOT_CHARS (a message may be hundreds of MB): `chars` is its whole length.
    snapshot: (ids) => {
      const texts = core.conversations.reads.messageTexts(ids, SNAPSHOT_CHARS);
      return each(ids, (id) => {
        const text = texts.get(id);
        return { ...core.conversations.reads.message(id, false), text: text?.text ?? '', chars: text?.chars ?? 0, ...(text && text.text.length < text.chars ? { truncated: true } : {}) };
      });
    },
  };
  const models: Material = {
    type: 'MODELS',
    prefix: 'models',
    key: 'model',
    what: 'AI models (the local ones Satchel knows)',
    search: (query, limit, window) => {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const found: Found[] = [];
      for (const model of core.models.list().iterable) {
        if (!within(model.created.value, model.created.value, window)) continue;
        const text = [model.name, model.foundation, model.provider, model.description, model.unique].filter(Boolean).join(' ').toLowerCase();
        const held = words.filter((word) => text.includes(word)).length;
        if (held > 0) found.push({ id: model.id, score: held / words.length, exact: text.includes(query.toLowerCase().trim()) });
      }
      return found.sort((a, b) => b.score - a.score).slice(0, limit);
    },
    ids: (limit, window) => core.models.list().iterable.filter((model) => within(model.created.value, model.created.value, window)).map((model) => model.id).slice(0, limit),
    snapshot: (ids) => each(ids, (id) => core.models.get(id)),
  };
  return [
    summaries,
    conversations,
    messages,
    recordKind(records, 'tag', { type: 'TAGS', prefix: 'tags', key: 'tag', what: 'tags' }, (id) => core.assets.labels.tag(id)),
    recordKind(records, 'annotation', { type: 'ANNOTATIONS', prefix: 'annotations', key: 'annotation', what: 'annotations (descriptions, summaries, comments)' }, (id) =>
      related.annotation(id),
    ),
    recordKind(records, 'anchor', { type: 'ANCHORS', prefix: 'anchors', key: 'anchor', what: 'anchors (files and folders snippets are linked to)' }, (id) => ({
      ...related.anchor(id),
      anchor_point_count: 1,
    })),
    recordKind(records, 'website', { type: 'WEBSITES', prefix: 'websites', key: 'website', what: 'websites' }, (id) => core.assets.labels.website(id)),
    models,
    {
      type: 'ANCHOR_POINTS',
      prefix: 'anchor_points',
      key: 'anchor_point',
      what: 'anchor points (the file or folder each anchor points at)',
      ids: (limit, window) => records.pointIds(limit, window),
      snapshot: (ids) => {
        const anchors = records.anchorsOfPoints(ids);
        return each(
          ids.filter((id) => anchors.has(id)),
          (id) => related.anchor(anchors.get(id)!).points.iterable[0]?.reference ?? {},
        );
      },
    },
    {
      type: 'RANGES',
      prefix: 'ranges',
      key: 'range',
      what: 'time ranges clients stored',
      ids: (limit, window) => records.ids('range', limit, window),
      snapshot: (ids) => each(ids, (id) => related.range(id)),
    },
  ];
}

function inWindow(core: Satchel, id: string, window: Window): boolean {
  if (Object.keys(window).length === 0) return true;
  const asset = core.assets.get(id, { transferables: false });
  return within(asset.created.value, asset.updated.value, window);
}
