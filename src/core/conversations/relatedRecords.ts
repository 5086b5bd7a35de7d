/**
 * Records that conversations associate with and that this area creates: annotations, anchors,
 * ranges and workstream summaries. Each is a generic record; every relation is a link, checked to
 * name an existing record when it is made.
 */
import type { StoreContext } from '../context.ts';
import type { RecordKind } from '../events.ts';
import { NotFoundError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { checkLimit } from '../limits.ts';
import { authorOf, type WriteOptions } from '../history/authors.ts';
import type * as W from '../piecesTypes.ts';
import {
  relationsOf,
  type AnnotationType,
  type GroupedTimestamp,
  type StoredAnchor,
  type StoredAnnotation,
  type StoredRange,
  type StoredWorkstreamSummary,
} from './records.ts';

/** Whether a record of `kind` exists, wherever its area keeps it. */
export type Exists = (kind: RecordKind, id: string) => boolean;

/**
 * Runs a change to an asset's DESCRIPTION annotation as a write of that asset, so the asset's
 * history records it (the assets area's AssetService.changeLinked; the composition root hands it in).
 */
export type DescriptionWrite = <T>(assetId: string, by: WriteOptions, change: () => T) => T;

/** A description changed through a door that does not say who called it (a conversation's seed, without a request). */
const UNATTRIBUTED: WriteOptions = { author: authorOf('unknown') };

export interface IdList {
  readonly iterable: ReadonlyArray<{ readonly id: string }>;
}

export interface AnnotationSeed {
  readonly type: AnnotationType;
  readonly text: string;
  readonly mechanism?: W.Annotation['mechanism'];
  readonly favorited?: boolean;
  readonly pseudo?: boolean;
  readonly asset?: string;
  readonly conversation?: string;
  readonly anchor?: string;
  readonly workstreamSummary?: string;
}

export interface AnchorSeed {
  readonly type: W.Anchor['type'];
  readonly fullpath: string;
  readonly name?: string;
  readonly watch?: boolean;
  readonly platform?: string;
  readonly asset?: string;
  readonly conversation?: string;
  readonly annotations?: readonly AnnotationSeed[];
}

export interface RangeSeed {
  readonly from?: GroupedTimestamp;
  readonly to?: GroupedTimestamp;
  readonly between?: boolean;
  readonly summary?: { readonly id: string };
  readonly conversation?: { readonly reference: { readonly id: string } };
}

export interface WorkstreamSummarySeed {
  readonly name: string;
  /** The client's Model, kept as sent (a summary only names the model that wrote it). */
  readonly model: { readonly id: string } & Readonly<Record<string, unknown>>;
  readonly favorited?: boolean;
  readonly assets?: IdList;
  readonly conversations?: IdList;
  readonly anchors?: IdList;
  readonly ranges?: IdList;
  readonly websites?: IdList;
}

export class RelatedRecords {
  private readonly context: StoreContext;
  private readonly exists: Exists;
  private readonly describing: DescriptionWrite;

  constructor(context: StoreContext, exists: Exists, describing: DescriptionWrite = (_asset, _by, change) => change()) {
    this.context = context;
    this.exists = exists;
    this.describing = describing;
  }

  /** Throws NotFoundError unless a record of `kind` named `id` exists. */
  require(kind: RecordKind, id: string): void {
    if (!this.exists(kind, id)) throw new NotFoundError(kind, id);
  }

  /** Links two records (both must exist) and announces both. */
  link(a: { kind: RecordKind; id: string }, b: { kind: RecordKind; id: string }): void {
    this.require(b.kind, b.id);
    if (this.context.links.link(a, b)) {
      this.context.publish(a);
      this.context.publish(b);
    }
  }

  // ── annotations ──

  /** `by` says who made it: a DESCRIPTION of an asset is a change of that asset (its history records it). */
  createAnnotation(seed: AnnotationSeed, generator?: string, by: WriteOptions = UNATTRIBUTED): W.Annotation {
    checkLimit('annotationChars', seed.text.length);
    if (seed.asset !== undefined && seed.type === 'DESCRIPTION') {
      const asset = seed.asset;
      return this.describing(asset, by, () => this.insertAnnotation(seed, generator));
    }
    return this.insertAnnotation(seed, generator);
  }

  private insertAnnotation(seed: AnnotationSeed, generator: string | undefined): W.Annotation {
    return this.context.transaction(() => {
      const now = stamp();
      const stored: StoredAnnotation = {
        id: newId(),
        type: seed.type,
        text: seed.text,
        created: now,
        updated: now,
        ...(seed.mechanism ? { mechanism: seed.mechanism } : {}),
        ...(seed.favorited !== undefined ? { favorited: seed.favorited } : {}),
        ...(seed.pseudo !== undefined ? { pseudo: seed.pseudo } : {}),
        ...(generator ? { generator } : {}),
      };
      this.context.records.put('annotation', stored.id, stored);
      this.context.publish({ kind: 'annotation', id: stored.id });
      const self = { kind: 'annotation', id: stored.id } as const;
      if (seed.asset) this.link(self, { kind: 'asset', id: seed.asset });
      if (seed.conversation) this.link(self, { kind: 'conversation', id: seed.conversation });
      if (seed.anchor) this.link(self, { kind: 'anchor', id: seed.anchor });
      if (seed.workstreamSummary) this.link(self, { kind: 'workstream_summary', id: seed.workstreamSummary });
      return this.annotation(stored.id);
    });
  }

  annotation(id: string): W.Annotation {
    const stored = this.context.records.get<StoredAnnotation>('annotation', id);
    if (!stored) throw new NotFoundError('annotation', id);
    const { generator: _generator, mechanism, ...wire } = stored;
    const relations = relationsOf(this.context.links, 'annotation', id);
    const conversation = relations['conversations']?.iterable[0];
    const asset = relations['assets']?.iterable[0];
    return {
      ...wire,
      ...(mechanism ? { mechanism: mechanism as W.Annotation['mechanism'] } : {}),
      ...relations,
      ...(conversation ? { conversation } : {}),
      ...(asset ? { asset } : {}),
    };
  }

  annotations(typeFilter?: AnnotationType): W.Annotations {
    const iterable = this.context.records
      .ids('annotation')
      .map((id) => this.annotation(id))
      .filter((annotation) => typeFilter === undefined || annotation.type === typeFilter);
    return collection(iterable);
  }

  // ── anchors ──

  createAnchor(seed: AnchorSeed): W.Anchor {
    if (seed.name !== undefined) checkLimit('nameChars', seed.name.length);
    return this.context.transaction(() => {
      const now = stamp();
      const stored: StoredAnchor = {
        id: newId(),
        type: seed.type,
        fullpath: seed.fullpath,
        pointId: newId(),
        created: now,
        updated: now,
        ...(seed.name !== undefined ? { name: seed.name } : {}),
        ...(seed.watch !== undefined ? { watch: seed.watch } : {}),
        ...(seed.platform !== undefined ? { platform: seed.platform } : {}),
      };
      this.context.records.put('anchor', stored.id, stored);
      this.context.publish({ kind: 'anchor', id: stored.id });
      const self = { kind: 'anchor', id: stored.id } as const;
      if (seed.asset) this.link(self, { kind: 'asset', id: seed.asset });
      if (seed.conversation) this.link(self, { kind: 'conversation', id: seed.conversation });
      for (const annotation of seed.annotations ?? []) {
        this.link(self, { kind: 'annotation', id: this.createAnnotation(annotation).id });
      }
      return this.anchor(stored.id);
    });
  }

  anchor(id: string): W.Anchor {
    const stored = this.context.records.get<StoredAnchor>('anchor', id);
    if (!stored) throw new NotFoundError('anchor', id);
    const point = {
      id: stored.pointId,
      fullpath: stored.fullpath,
      created: stored.created,
      updated: stored.updated,
      anchor: { id },
      ...(stored.platform ? { platform: stored.platform as NonNullable<W.Anchor['points']['iterable'][number]['reference']>['platform'] } : {}),
    };
    return {
      id,
      type: stored.type,
      created: stored.created,
      updated: stored.updated,
      ...(stored.name !== undefined ? { name: stored.name } : {}),
      ...(stored.watch !== undefined ? { watch: stored.watch } : {}),
      points: { iterable: [{ id: stored.pointId, reference: point }], indices: { [stored.pointId]: 0 } },
      ...relationsOf(this.context.links, 'anchor', id),
    };
  }

  anchors(): W.Anchors {
    return collection(this.context.records.ids('anchor').map((id) => this.anchor(id)));
  }

  // ── ranges ──

  createRange(seed: RangeSeed): W.Range {
    return this.context.transaction(() => {
      const now = stamp();
      const stored: StoredRange = {
        id: newId(),
        created: now,
        updated: now,
        ...(seed.from ? { from: seed.from } : {}),
        ...(seed.to ? { to: seed.to } : {}),
        ...(seed.between !== undefined ? { between: seed.between } : {}),
      };
      this.context.records.put('range', stored.id, stored);
      this.context.publish({ kind: 'range', id: stored.id });
      const self = { kind: 'range', id: stored.id } as const;
      if (seed.summary) this.link(self, { kind: 'workstream_summary', id: seed.summary.id });
      if (seed.conversation) this.link(self, { kind: 'conversation', id: seed.conversation.reference.id });
      return this.range(stored.id);
    });
  }

  range(id: string): W.Range {
    const stored = this.context.records.get<StoredRange>('range', id);
    if (!stored) throw new NotFoundError('range', id);
    return { ...stored, ...relationsOf(this.context.links, 'range', id) };
  }

  ranges(): W.Ranges {
    return collection(this.context.records.ids('range').map((id) => this.range(id)));
  }

  // ── workstream summaries ──

  createWorkstreamSummary(seed: WorkstreamSummarySeed): W.WorkstreamSummary {
    checkLimit('nameChars', seed.name.length);
    return this.context.transaction(() => {
      const now = stamp();
      const stored: StoredWorkstreamSummary = {
        id: newId(),
        name: seed.name,
        model: seed.model,
        created: now,
        updated: now,
        ...(seed.favorited !== undefined ? { favorited: seed.favorited } : {}),
      };
      this.context.records.put('workstream_summary', stored.id, stored);
      this.context.publish({ kind: 'workstream_summary', id: stored.id });
      const self = { kind: 'workstream_summary', id: stored.id } as const;
      const lists: ReadonlyArray<readonly [IdList | undefined, RecordKind]> = [
        [seed.assets, 'asset'],
        [seed.conversations, 'conversation'],
        [seed.anchors, 'anchor'],
        [seed.ranges, 'range'],
        [seed.websites, 'website'],
      ];
      for (const [list, kind] of lists) for (const { id } of list?.iterable ?? []) this.link(self, { kind, id });
      return this.workstreamSummary(stored.id);
    });
  }

  workstreamSummary(id: string): W.WorkstreamSummary {
    const stored = this.context.records.get<StoredWorkstreamSummary>('workstream_summary', id);
    if (!stored) throw new NotFoundError('workstream_summary', id);
    return { ...stored, ...relationsOf(this.context.links, 'workstream_summary', id) };
  }

  workstreamSummaries(): W.WorkstreamSummaries {
    return collection(this.context.records.ids('workstream_summary').map((id) => this.workstreamSummary(id)));
  }

  /**
   * Deletes a record of one of these kinds and every link that names it. Deleting an asset's
   * DESCRIPTION is a change of that asset, made `by` the caller.
   */
  delete(kind: 'annotation' | 'anchor' | 'range' | 'workstream_summary', id: string, by: WriteOptions = UNATTRIBUTED): void {
    this.context.transaction(() => {
      const described =
        kind === 'annotation' && this.context.records.get<StoredAnnotation>('annotation', id)?.type === 'DESCRIPTION'
          ? this.context.links.partners({ kind, id }, 'asset')
          : [];
      // Each described asset's write wraps the deletion (an annotation is rarely linked to more than one).
      const remove = described.reduce<() => void>((inner, asset) => () => this.describing(asset, by, inner), () => {
        if (!this.context.records.delete(kind, id)) throw new NotFoundError(kind, id);
        for (const partner of this.context.links.removeAll({ kind, id })) this.context.publish(partner);
        this.context.publish({ kind, id, deleted: true });
      });
      remove();
    });
  }
}

export function collection<T extends { id: string }>(iterable: T[]): { iterable: T[]; indices: Record<string, number> } {
  return { iterable, indices: Object.fromEntries(iterable.map((item, index) => [item.id, index])) };
}
