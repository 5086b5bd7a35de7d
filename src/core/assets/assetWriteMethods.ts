/**
 * The write methods of the assets area (AssetService inherits them): each hands its call to
 * AssetWrites (assetWrites.ts), which holds every change in one transaction with its indexes,
 * activities and revision. Kept apart so the service's own file holds its composition and reads.
 */
import type { Application, Asset, Format, SeededConnectorTracking, SeededScoreIncrement, SeededTag, SeededWebsite, Tag, Website } from '../wire.ts';
import type { WriteOptions } from '../history/authors.ts';
import type { Touched } from '../history/revisionTracker.ts';
import type { AssetEdit } from './assetEdits.ts';
import type { AssetWrites, CreateOptions } from './assetWrites.ts';
import type { AssetUpdateInput, FormatUpdateInput, SeedInput } from './inputs.ts';
import { AssetSearchMethods } from './assetSearchMethods.ts';

export abstract class AssetWriteMethods extends AssetSearchMethods {
  protected abstract readonly writes: AssetWrites;

  create(seed: SeedInput, options: CreateOptions): Promise<Asset> {
    return this.writes.create(seed, options);
  }

  update(input: AssetUpdateInput, by: WriteOptions): Asset {
    return this.writes.update(input, by);
  }

  /** Content, name, language, tags and description in one write and one revision (see AssetWrites.edit). */
  edit(id: string, edit: AssetEdit, by: WriteOptions): { asset: Asset; revision: string } {
    return this.writes.edit(id, edit, by);
  }

  /** Deletes the asset: into the trash, when the assets area was given one. */
  delete(id: string, by: WriteOptions): string {
    return this.writes.delete(id, by);
  }

  reclassify(id: string, ext: string, by: WriteOptions): Asset {
    return this.writes.reclassify(id, ext, by);
  }

  updateFormatValue(input: FormatUpdateInput, transferable: boolean, by: WriteOptions): Format {
    return this.writes.updateFormatValue(input, transferable, by);
  }

  /** A change to a record linked to the asset (its description annotation) made as a write of the asset (AssetWrites.changeLinked). */
  changeLinked<T>(assetId: string, by: WriteOptions, touched: Touched, change: () => T): T {
    return this.writes.changeLinked(assetId, by, touched, change);
  }

  incrementScores(id: string, increment: SeededScoreIncrement): void {
    this.writes.incrementScores(id, increment);
  }

  recordActivity(id: string, event: SeededConnectorTracking, application?: Application): void {
    this.writes.recordActivity(id, event, application);
  }

  associate(assetId: string, kind: 'tag' | 'website' | 'workstream_summary', targetId: string, by: WriteOptions): void {
    this.writes.associate(assetId, kind, targetId, by);
  }

  disassociate(assetId: string, kind: 'tag' | 'website' | 'workstream_summary', targetId: string, by: WriteOptions): void {
    this.writes.disassociate(assetId, kind, targetId, by);
  }

  createTag(seed: SeededTag, by: WriteOptions): Tag {
    return this.writes.createTag(seed, by);
  }

  createWebsite(seed: SeededWebsite, by: WriteOptions): Website {
    return this.writes.createWebsite(seed, by);
  }
}
