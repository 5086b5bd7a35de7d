/** The activity records hanging off assets: what happened to an asset, by which application. */
import type { StoreContext } from '../context.ts';
import type { Activities, Activity, Application, SeededConnectorTracking } from '../piecesTypes.ts';
import { newId, stamp } from '../time.ts';
import { SATCHEL_APPLICATION } from './origin.ts';
import { flattened, type StoredAsset } from './storedAsset.ts';

export type AssetEvent =
  | 'asset_created'
  | 'asset_updated'
  | 'asset_deleted'
  | 'asset_format_specific_classification_updated'
  | 'asset_format_value_edited'
  | 'asset_tag_added'
  | 'asset_tag_deleted'
  | 'asset_link_added'
  | 'asset_link_deleted'
  | 'asset_referenced';

const EVENT_DESCRIPTIONS: Record<AssetEvent, string> = {
  asset_created: 'an_asset_was_created',
  asset_updated: 'an_asset_was_updated',
  asset_deleted: 'an_asset_was_deleted',
  asset_format_specific_classification_updated: 'a_specific_classification_was_changed_on_a_format_within_an_asset',
  asset_format_value_edited: 'a_specific_format_value_was_edited_on_an_asset',
  asset_tag_added: 'a_tag_was_added_by_the_user',
  asset_tag_deleted: 'a_tag_was_deleted_by_the_user',
  asset_link_added: 'a_link_was_added_by_the_user',
  asset_link_deleted: 'a_link_was_deleted_by_the_user',
  asset_referenced: 'an_asset_was_referenced_by_the_user',
};

/** Activities read and sent at a time by GET /activities. */
const ACTIVITY_PAGE = 256;

export class AssetActivities {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  /** The activities of an asset, each carrying the asset it is about. */
  of(doc: StoredAsset): Activities {
    const iterable = this.context.links.partners({ kind: 'asset', id: doc.id }, 'activity').flatMap((activityId) => {
      const activity = this.context.records.get<Activity>('activity', activityId);
      return activity ? [{ ...activity, asset: flattened(doc) }] : [];
    });
    return { iterable };
  }

  /**
   * Every activity (GET /activities), oldest first, `size` at a time, each carrying the asset it is
   * about as `of` does (the Pieces example app lists only activities with their asset's name).
   * `docOf` reads an asset without its content; one links query per page finds them.
   */
  *pages(docOf: (id: string) => StoredAsset | undefined, size = ACTIVITY_PAGE): Generator<Activity[]> {
    for (const page of this.context.records.pages<Activity>('activity', size)) {
      const partners = this.context.links.partnersOfEach('activity', page.map((record) => record.id));
      const docs = new Map<string, StoredAsset | undefined>();
      yield page.map(({ id, data }) => {
        const assetId = partners.get(id)?.get('asset')?.[0];
        if (assetId === undefined) return data;
        if (!docs.has(assetId)) docs.set(assetId, docOf(assetId));
        const doc = docs.get(assetId);
        return doc ? { ...data, asset: flattened(doc) } : data;
      });
    }
  }

  /** Records one of Satchel's own events on an asset (inside the caller's transaction). */
  add(assetId: string, event: AssetEvent, application?: Application): void {
    const tracking: SeededConnectorTracking = {
      asset: { asset: { id: assetId }, identifier_description_pair: { [event]: EVENT_DESCRIPTIONS[event] } },
    };
    this.store(assetId, tracking, application);
  }

  /** Records an event a client tracked on an asset (inside the caller's transaction). */
  store(assetId: string, event: SeededConnectorTracking, application?: Application): void {
    const now = stamp();
    const activity: Activity = {
      id: newId(),
      created: now,
      updated: now,
      event,
      application: { ...SATCHEL_APPLICATION, ...application },
      mechanism: 'AUTOMATIC',
    };
    this.context.records.put('activity', activity.id, activity);
    this.context.links.link({ kind: 'asset', id: assetId }, { kind: 'activity', id: activity.id });
    this.context.publish({ kind: 'activity', id: activity.id });
  }

  /** Deletes every activity of an asset (it is being deleted). */
  removeAll(assetId: string): void {
    for (const activityId of this.context.links.partners({ kind: 'asset', id: assetId }, 'activity')) {
      this.context.records.delete('activity', activityId);
    }
  }
}
