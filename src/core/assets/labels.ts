/**
 * Tags and websites: generic records (kinds 'tag' and 'website') linked to assets through the
 * store's symmetric links. A tag is unique by text and a website by url, so creating one twice
 * gives the same record back.
 */
import type { StoreContext } from '../context.ts';
import type { SeededTag, SeededWebsite, Tag, Website, FlattenedAssets } from '../wire.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { lookupKey } from '../store/baseSchema.ts';
import { checkLimit } from '../limits.ts';

type StoredTag = Omit<Tag, 'assets'>;
type StoredWebsite = Omit<Website, 'assets' | 'conversations'>;

export class Labels {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  private assetsOf(kind: 'tag' | 'website', id: string): FlattenedAssets {
    return { iterable: this.context.links.partners({ kind, id }, 'asset').map((asset) => ({ id: asset })) };
  }

  tag(id: string): Tag {
    const stored = this.context.records.get<StoredTag>('tag', id);
    if (!stored) throw new NotFoundError('tag', id);
    return { ...stored, assets: this.assetsOf('tag', id) };
  }

  tags(): Tag[] {
    return this.context.records.list<StoredTag>('tag').map((r) => ({ ...r.data, assets: this.assetsOf('tag', r.id) }));
  }

  // Inside an asset its tags and websites leave out their own asset lists: those name every asset
  // with the same label, which would make each asset's reply grow with the whole store.
  tagsOfAsset(assetId: string): Tag[] {
    return this.context.links.partners({ kind: 'asset', id: assetId }, 'tag').flatMap((id) => {
      const stored = this.context.records.get<StoredTag>('tag', id);
      return stored ? [stored] : [];
    });
  }

  /** Ids of the assets carrying the tag whose text is `text` (compared as tags are: ignoring case). */
  assetsTagged(text: string): string[] {
    const tag = this.context.records.find<StoredTag>('tag', lookupKey('tag', text.trim()));
    return tag ? this.context.links.partners({ kind: 'tag', id: tag.id }, 'asset') : [];
  }

  /** Creates the tag (or returns the one with the same text). Must run inside a transaction when part of a larger write. */
  createTag(seed: SeededTag): StoredTag {
    const text = seed.text.trim();
    if (text.length === 0) throw new InvalidInputError('A tag needs a non-empty text');
    checkLimit('tagChars', text.length);
    return this.context.transaction(() => {
      const key = lookupKey('tag', text);
      const existing = this.context.records.find<StoredTag>('tag', key)?.data;
      if (existing) return existing;
      const now = stamp();
      const tag: StoredTag = { id: newId(), text, created: now, updated: now, category: seed.category ?? 'UNKNOWN' };
      this.context.records.put('tag', tag.id, tag, key);
      this.context.publish({ kind: 'tag', id: tag.id });
      return tag;
    });
  }

  website(id: string): Website {
    const stored = this.context.records.get<StoredWebsite>('website', id);
    if (!stored) throw new NotFoundError('website', id);
    return this.renderWebsite(stored);
  }

  websites(): Website[] {
    return this.context.records.list<StoredWebsite>('website').map((r) => this.renderWebsite(r.data));
  }

  /** A website with both sides of its links: the assets and the conversations associated with it. */
  private renderWebsite(stored: StoredWebsite): Website {
    const conversations = this.context.links.partners({ kind: 'website', id: stored.id }, 'conversation');
    return { ...stored, assets: this.assetsOf('website', stored.id), conversations: { iterable: conversations.map((id) => ({ id })) } };
  }

  websitesOfAsset(assetId: string): Website[] {
    return this.context.links.partners({ kind: 'asset', id: assetId }, 'website').flatMap((id) => {
      const stored = this.context.records.get<StoredWebsite>('website', id);
      return stored ? [stored] : [];
    });
  }

  createWebsite(seed: SeededWebsite): StoredWebsite {
    const url = seed.url.trim();
    if (url.length === 0) throw new InvalidInputError('A website needs a non-empty url');
    checkLimit('urlChars', url.length);
    checkLimit('nameChars', seed.name.trim().length);
    return this.context.transaction(() => {
      const key = lookupKey('website', url);
      const existing = this.context.records.find<StoredWebsite>('website', key)?.data;
      if (existing) return existing;
      const now = stamp();
      const website: StoredWebsite = { id: newId(), url, name: seed.name.trim() || url, created: now, updated: now };
      this.context.records.put('website', website.id, website, key);
      this.context.publish({ kind: 'website', id: website.id });
      return website;
    });
  }
}
