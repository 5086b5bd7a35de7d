/**
 * An asset's description: the DESCRIPTION annotation linked to it (where Pieces keeps it), read and
 * written here for the assets area's writes, its imports and its revisions. An asset linked to
 * several reads the first linked.
 */
import type { StoreContext } from '../context.ts';
import { newOrderedId, type stamp } from '../time.ts';
import { checkLimit } from '../limits.ts';
import { wellFormed } from './content.ts';

type Stamp = ReturnType<typeof stamp>;

interface DescriptionRecord {
  readonly id: string;
  readonly type: 'DESCRIPTION';
  readonly text: string;
  readonly created: Stamp;
  readonly updated: Stamp;
  readonly mechanism?: string;
}

export class Descriptions {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  /** The asset's description, or undefined when it has none. */
  of(assetId: string): string | undefined {
    return this.record(assetId)?.text;
  }

  /** A new DESCRIPTION annotation, to be linked to its asset by the caller (an import links a batch at once). */
  create(text: string, now: Stamp): string {
    const id = newOrderedId();
    const record: DescriptionRecord = { id, type: 'DESCRIPTION', text: wellFormed(text), created: now, updated: now, mechanism: 'MANUAL' };
    this.context.records.put('annotation', id, record);
    this.context.publish({ kind: 'annotation', id });
    return id;
  }

  /**
   * Sets the asset's description (undefined or blank removes it); returns whether it changed. The
   * caller holds the asset's write transaction.
   */
  set(assetId: string, text: string | undefined, now: Stamp): boolean {
    const current = this.record(assetId);
    const wanted = text === undefined || text.trim() === '' ? undefined : wellFormed(text);
    if (wanted === current?.text) return false;
    if (wanted === undefined) {
      const id = current!.id;
      this.context.records.delete('annotation', id);
      for (const partner of this.context.links.removeAll({ kind: 'annotation', id })) this.context.publish(partner);
      this.context.publish({ kind: 'annotation', id, deleted: true });
      return true;
    }
    checkLimit('annotationChars', wanted.length, current?.text.length ?? 0);
    if (current) {
      this.context.records.put('annotation', current.id, { ...current, text: wanted, updated: now });
      this.context.publish({ kind: 'annotation', id: current.id });
    } else {
      const id = this.create(wanted, now);
      this.context.links.link({ kind: 'annotation', id }, { kind: 'asset', id: assetId });
    }
    this.context.publish({ kind: 'asset', id: assetId });
    return true;
  }

  private record(assetId: string): DescriptionRecord | undefined {
    const row = this.context.database
      .prepare(
        `SELECT r.data AS data FROM links l CROSS JOIN records r ON r.kind = 'annotation' AND r.id = l.b_id
         WHERE l.a_kind = 'asset' AND l.a_id = ? AND l.b_kind = 'annotation' AND json_extract(r.data, '$.type') = 'DESCRIPTION'
         ORDER BY l.rowid LIMIT 1`,
      )
      .get(assetId) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as DescriptionRecord) : undefined;
  }
}
