import { Emitter, type Disposable, type Event } from '../events.ts';
import type { Asset } from '../piecesTypes.ts';

/** Deleted assets remembered for streams that announce a deletion after the asset is gone. */
const KEPT = 256;

/** The last (content-free) state of recently deleted assets, and the event announcing each deletion. */
export class Tombstones implements Disposable {
  private readonly kept = new Map<string, Asset>();
  private readonly deletions = new Emitter<Asset>();
  /** Fires after commit with the last state of a deleted asset (content-free). */
  readonly onDidDelete: Event<Asset> = this.deletions.event;

  /** Called once the deletion is committed. */
  remember(id: string, last: Asset): void {
    this.kept.set(id, last);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.deletions.fire(last);
  }

  get(id: string): Asset | undefined {
    return this.kept.get(id);
  }

  dispose(): void {
    this.deletions.dispose();
    this.kept.clear();
  }
}
