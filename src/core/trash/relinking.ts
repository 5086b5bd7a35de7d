/**
 * What a restore puts back before the record itself: the records deleted with it (its activities,
 * an annotation nothing else named), then every link it had, in the order they were made. A link's
 * other end is resolved as it stands now:
 *   - it exists: linked again;
 *   - it comes back in the same restore (a conversation's own messages): linked;
 *   - it is a tag or website deleted meanwhile: the live one with the same text or url, else the
 *     record made again from the copy kept, under its id;
 *   - it is in the trash itself (a conversation trashed after the asset): the link is added to that
 *     entry, so restoring it later links the two again;
 *   - anything else (an anchor deleted since): dropped, as a delete of that record would have.
 */
import type { StoreContext } from '../context.ts';
import type { LinkEnd } from '../store/links.ts';
import type { SavedRecord, TrashStore } from './trashStore.ts';

const keyOf = (end: LinkEnd): string => `${end.kind}\u0000${end.id}`;

/** Where a link's other end is now: a record to link to, or the trash entry that holds it. */
type Resolved = { readonly link: LinkEnd } | { readonly entry: string } | undefined;

export class Relinking {
  private readonly context: StoreContext;
  private readonly store: TrashStore;
  private readonly exists: (end: LinkEnd) => boolean;

  constructor(context: StoreContext, store: TrashStore, exists: (end: LinkEnd) => boolean) {
    this.context = context;
    this.store = store;
    this.exists = exists;
  }

  /** Puts back the records and links of the entry `owner` (inside its restore's transaction). */
  putBack(owner: string): void {
    const saved = this.store.records(owner);
    const copies = new Map<string, SavedRecord>();
    const touched = new Map<string, LinkEnd>();
    for (const record of saved) {
      if (!record.owned) {
        copies.set(keyOf(record), record);
        continue;
      }
      this.context.records.put(record.kind, record.id, JSON.parse(record.data) as unknown, record.lookup ?? undefined);
      touched.set(keyOf(record), { kind: record.kind, id: record.id });
    }
    const resolved = new Map<string, Resolved>();
    for (const { a, b } of this.store.links(owner)) {
      const key = keyOf(b);
      if (!resolved.has(key)) resolved.set(key, this.resolve(owner, b, copies.get(key)));
      const where = resolved.get(key);
      if (where === undefined) continue;
      if ('entry' in where) {
        this.store.addLink(where.entry, b, a);
        continue;
      }
      if (this.context.links.link(a, where.link)) touched.set(keyOf(where.link), where.link);
    }
    // The entry's own records are announced by the area that puts them back.
    for (const end of touched.values()) if (this.store.ownerOf(end) !== owner) this.context.publish(end);
  }

  private resolve(owner: string, end: LinkEnd, copy: SavedRecord | undefined): Resolved {
    if (this.exists(end)) return { link: end };
    const entry = this.store.ownerOf(end);
    if (entry === owner) return { link: end };
    if (entry !== undefined) return { entry };
    if (copy === undefined) return undefined;
    const same = copy.lookup === null ? undefined : this.context.records.find(copy.kind, copy.lookup);
    if (same !== undefined) return { link: { kind: copy.kind, id: same.id } };
    this.context.records.put(copy.kind, copy.id, JSON.parse(copy.data) as unknown, copy.lookup ?? undefined);
    return { link: { kind: copy.kind, id: copy.id } };
  }
}
