/**
 * What the conversations area stores, and how a stored record's associations become the wire's
 * flattened reference lists. Relations never live inside stored documents: they are links, read
 * back when a record is rendered, so removing a link (or a record) can never leave a stale copy.
 */
import type { Links } from '../store/links.ts';
import type { RecordKind } from '../events.ts';
import type * as W from '../piecesTypes.ts';

export type GroupedTimestamp = W.GroupedTimestamp;
export type Score = W.Score;
export type FragmentFormat = NonNullable<W.ConversationMessage['fragment']>;
export type MessageRole = W.ConversationMessage['role'];
export type ConversationType = W.Conversation['type'];
export type AnnotationType = W.Annotation['type'];

export interface StoredConversation {
  readonly id: string;
  readonly name?: string;
  readonly type: ConversationType;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
  readonly favorited?: boolean;
  readonly demo?: boolean;
  readonly score: Score;
  readonly application?: W.Application;
  readonly model?: { readonly id: string };
}

export interface StoredAnnotation {
  readonly id: string;
  readonly type: AnnotationType;
  readonly text: string;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
  readonly mechanism?: string;
  readonly favorited?: boolean;
  readonly pseudo?: boolean;
  /** What wrote it: 'extractive' or 'rule' for the offline methods, or 'model' (models.md §7.5). */
  readonly generator?: string;
}

export interface StoredAnchor {
  readonly id: string;
  readonly type: W.Anchor['type'];
  readonly name?: string;
  readonly watch?: boolean;
  readonly fullpath: string;
  readonly platform?: string;
  readonly pointId: string;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
}

export interface StoredRange {
  readonly id: string;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
  readonly from?: GroupedTimestamp;
  readonly to?: GroupedTimestamp;
  readonly between?: boolean;
}

export interface StoredWorkstreamSummary {
  readonly id: string;
  readonly name: string;
  readonly model: W.SummaryModel;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
  readonly favorited?: boolean;
}

export interface Flattened {
  iterable: Array<{ id: string }>;
  indices: Record<string, number>;
}

export function flattened(ids: readonly string[]): Flattened {
  return { iterable: ids.map((id) => ({ id })), indices: Object.fromEntries(ids.map((id, index) => [id, index])) };
}

export function initialScore(): Score {
  return { manual: 0, automatic: 0 };
}

/** The reference lists each rendered record carries: wire key → kind of the linked records. */
const relationKeys: Partial<Record<RecordKind, ReadonlyArray<readonly [string, RecordKind]>>> = {
  annotation: [
    ['conversations', 'conversation'],
    ['assets', 'asset'],
    ['anchors', 'anchor'],
    ['messages', 'message'],
    ['summaries', 'workstream_summary'],
    ['websites', 'website'],
  ],
  anchor: [
    ['conversations', 'conversation'],
    ['assets', 'asset'],
    ['annotations', 'annotation'],
    ['messages', 'message'],
    ['summaries', 'workstream_summary'],
  ],
  range: [
    ['conversations', 'conversation'],
    ['messages', 'message'],
    ['summaries', 'workstream_summary'],
  ],
  workstream_summary: [
    ['conversations', 'conversation'],
    ['assets', 'asset'],
    ['anchors', 'anchor'],
    ['annotations', 'annotation'],
    ['ranges', 'range'],
    ['websites', 'website'],
    ['messages', 'message'],
  ],
};

/** The flattened reference lists of a record of `kind`, read from its links. */
export function relationsOf(links: Links, kind: RecordKind, id: string): Record<string, Flattened> {
  const result: Record<string, Flattened> = {};
  for (const [key, partnerKind] of relationKeys[kind] ?? []) {
    result[key] = flattened(links.partners({ kind, id }, partnerKind));
  }
  return result;
}
