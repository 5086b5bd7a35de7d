/**
 * Tags and websites: generic records (kinds 'tag' and 'website') linked to assets through the
 * store's symmetric links. A tag is unique by text and a website by url, so creating one twice
 * gives the same record back.
 */
import type { StatementSync } from 'node:sqlite';
import type { StoreContext } from '../context.ts';
import type { SeededTag, SeededWebsite, Tag, Website } from '../piecesTypes.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { lookupKey } from '../store/baseSchema.ts';
import { checkLimit } from '../limits.ts';
import { wellFormed } from './content.ts';

type StoredTag = Omit<Tag, 'assets'>;
type StoredWebsite = Omit<Website, 'assets' | 'conversations'>;

/** Tags or websites in a page of a listing. */
const LABEL_PAGE = 256;

/**
 * Links (to assets, to conversations) the labels of one page carry at most, a label with more
 * coming alone: 128 tags each on 10k snippets made one page of 1.28M links, read and encoded in
 * one turn (GET /tags 4.9–9.1 s, health 1.4–2.3 s).
 */
const LABEL_PAGE_LINKS = 8192;

/**
 * The records of kind `partner` linked to the record `r` as a JSON array of `{id}`, oldest link
 * first, made by SQLite: a tag on 100k assets is one value, not 100k rows for JavaScript to build.
 */
function partners(kind: 'tag' | 'website', partner: 'asset' | 'conversation'): string {
  return `(SELECT json_group_array(json_object('id', l.b_id) ORDER BY l.rowid) FROM links l
    WHERE l.a_kind = '${kind}' AND l.a_id = r.id AND l.b_kind = '${partner}')`;
}

const WEBSITE_PARTNERS = `${partners('website', 'asset')} AS assets, ${partners('website', 'conversation')} AS conversations`;

type WebsiteRow = { data: string; assets: string; conversations: string };

function tagOf(row: { data: string; assets: string }): Tag {
  return { ...(JSON.parse(row.data) as StoredTag), assets: { iterable: JSON.parse(row.assets) as Array<{ id: string }> } };
}

function websiteOf(row: WebsiteRow): Website {
  return {
    ...(JSON.parse(row.data) as StoredWebsite),
    assets: { iterable: JSON.parse(row.assets) as Array<{ id: string }> },
    conversations: { iterable: JSON.parse(row.conversations) as Array<{ id: string }> },
  };
}

export class Labels {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  tag(id: string): Tag {
    const row = this.context.database.prepare(`SELECT r.data AS data, ${partners('tag', 'asset')} AS assets FROM records r WHERE r.kind = 'tag' AND r.id = ?`).get(id) as
      | { data: string; assets: string }
      | undefined;
    if (!row) throw new NotFoundError('tag', id);
    return tagOf(row);
  }

  /** Every tag, oldest first, with the assets carrying each. */
  tags(): Tag[] {
    return [...this.tagPages()].flat();
  }

  /**
   * The tags a page at a time (see `labelPages`): with 200k tags, one statement per tag for its
   * assets made GET /tags take 8 s while health waited.
   */
  tagPages(pageSize = LABEL_PAGE, pageLinks = LABEL_PAGE_LINKS): Generator<Tag[]> {
    const read = this.context.database.prepare(
      `SELECT r.data AS data, ${partners('tag', 'asset')} AS assets FROM json_each(?) j CROSS JOIN records r ON r.rowid = j.value ORDER BY j.key`,
    );
    return this.labelPages('tag', pageSize, pageLinks, (rowids) => (read.all(JSON.stringify(rowids)) as Array<{ data: string; assets: string }>).map(tagOf));
  }

  /**
   * The records of `kind` in pages of at most `pageSize` records and `pageLinks` links, a record
   * with more links alone, oldest first. Their rowids are listed by one statement as one JSON value
   * (a row per record costs JavaScript more than SQLite); each page is formed when asked for, the
   * links of the next `pageSize` records counted together, or when they are too many each record's
   * counted only up to what the page has room for, so a page costs at most
   * `pageSize` index searches and `pageLinks` steps whatever the labels carry, and a caller can give
   * the event loop a turn between pages. A record deleted meanwhile is left out.
   */
  private *labelPages<T>(kind: 'tag' | 'website', pageSize: number, pageLinks: number, read: (rowids: readonly number[]) => T[]): Generator<T[]> {
    const { rowids } = this.context.database
      .prepare('SELECT json_group_array(rowid) AS rowids FROM (SELECT rowid FROM records WHERE kind = ? ORDER BY rowid)')
      .get(kind) as { rowids: string };
    const all = JSON.parse(rowids) as number[];
    // Links of a record, or of a batch of records (JSON array of rowids), counted up to a bound.
    const links = (records: string): StatementSync =>
      this.context.database.prepare(`SELECT count(*) AS links FROM (SELECT 1 FROM ${records} CROSS JOIN links l ON l.a_kind = r.kind AND l.a_id = r.id LIMIT ?)`);
    const ofBatch = links('json_each(?) j CROSS JOIN records r ON r.rowid = j.value');
    const ofOne = links('(SELECT kind, id FROM records WHERE rowid = ?) r');
    const count = (statement: StatementSync, of: number | string, bound: number): number => (statement.get(of, bound) as { links: number }).links;
    for (let at = 0; at < all.length; ) {
      // Usually the next `pageSize` records fit: one statement. Otherwise each is counted in turn.
      const batch = all.slice(at, at + pageSize);
      if (count(ofBatch, JSON.stringify(batch), pageLinks + 1) <= pageLinks) {
        at += batch.length;
        yield read(batch);
        continue;
      }
      const page: number[] = [];
      for (let held = 0; at < all.length && page.length < pageSize && held < pageLinks; ) {
        const more = count(ofOne, all[at]!, pageLinks - held + 1);
        if (page.length > 0 && held + more > pageLinks) break;
        page.push(all[at++]!);
        held += more;
      }
      yield read(page);
    }
  }

  // Inside an asset its tags and websites leave out their own asset lists: those name every asset
  // with the same label, which would make each asset's reply grow with the whole store.
  /** The asset's tags, oldest link first; at most `atMost` of them. */
  tagsOfAsset(assetId: string, atMost = -1): Tag[] {
    return this.linkedRecords(assetId, 'tag', 'data', atMost).map((data) => JSON.parse(data) as Tag);
  }

  /** The texts of the asset's tags, oldest link first; at most `atMost` of them. */
  tagTexts(assetId: string, atMost = -1): string[] {
    return this.linkedRecords(assetId, 'tag', "json_extract(data, '$.text')", atMost);
  }

  /**
   * `column` of each record of `kind` linked to the asset, oldest link first, in one statement:
   * each record is found by a correlated lookup on its key, which is an index search whatever the
   * table statistics say (a join planned on statistics from when the store held two tags scanned
   * every tag once per link: minutes for an asset with 200k tags).
   */
  private linkedRecords(assetId: string, kind: 'tag' | 'website', column: string, atMost: number): string[] {
    const rows = this.context.database
      .prepare(
        `SELECT (SELECT ${column} FROM records WHERE kind = l.b_kind AND id = l.b_id) AS value FROM links l
         WHERE l.a_kind = 'asset' AND l.a_id = ? AND l.b_kind = ? ORDER BY l.rowid LIMIT ?`,
      )
      .all(assetId, kind, atMost) as Array<{ value: string | null }>;
    return rows.flatMap((row) => (row.value === null ? [] : [row.value]));
  }

  /** Ids of the assets carrying the tag whose text is `text` (compared as tags are: ignoring case). */
  assetsTagged(text: string): string[] {
    const tag = this.context.records.find<StoredTag>('tag', lookupKey('tag', text.trim()));
    return tag ? this.context.links.partners({ kind: 'tag', id: tag.id }, 'asset') : [];
  }

  /** Ids of the tags with these texts (compared as tags are: ignoring case), or undefined when one has no tag. */
  tagIds(texts: readonly string[]): string[] | undefined {
    const ids: string[] = [];
    for (const text of texts) {
      const tag = this.context.records.find<StoredTag>('tag', lookupKey('tag', text.trim()));
      if (!tag) return undefined;
      ids.push(tag.id);
    }
    return ids;
  }

  /** Ids of the tags any of `values` names, by id or by text (compared as tags are: ignoring case). */
  tagsNamed(values: readonly string[]): string[] {
    const ids = new Set<string>();
    for (const value of values) {
      if (this.context.records.has('tag', value)) ids.add(value);
      const byText = this.context.records.find<StoredTag>('tag', lookupKey('tag', value.trim()));
      if (byText) ids.add(byText.id);
    }
    return [...ids];
  }

  /** The tags among `tagIds` the asset carries: one index lookup each, however many tags it has. */
  carriedAmong(assetId: string, tagIds: readonly string[]): Tag[] {
    return tagIds.flatMap((id) => {
      if (!this.context.links.has({ kind: 'asset', id: assetId }, { kind: 'tag', id })) return [];
      const stored = this.context.records.get<StoredTag>('tag', id);
      return stored ? [stored] : [];
    });
  }

  /** Whether the asset carries every one of the tags (by id): one index lookup each. */
  carries(assetId: string, tagIds: readonly string[]): boolean {
    return tagIds.every((tag) => this.context.links.has({ kind: 'asset', id: assetId }, { kind: 'tag', id: tag }));
  }

  /** Creates the tag (or returns the one with the same text). Must run inside a transaction when part of a larger write. */
  createTag(seed: SeededTag): StoredTag {
    const text = wellFormed(seed.text.trim());
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

  /**
   * Gives the tag spelled `text` ignoring case that exact spelling when `takes(held)` says so for
   * the spelling it holds (sync's rule, sync/labelSpelling.ts); whether it changed. The tag's
   * snippets are noted changed (the sync triggers), so the next sync sends them so spelled.
   */
  respellTag(given: string, takes: (held: string) => boolean): boolean {
    const text = wellFormed(given.trim());
    const key = lookupKey('tag', text);
    const found = this.context.records.find<StoredTag>('tag', key);
    if (!found || found.data.text === text || !takes(found.data.text)) return false;
    this.context.records.put('tag', found.id, { ...found.data, text, updated: stamp() }, key);
    this.context.publish({ kind: 'tag', id: found.id });
    return true;
  }

  /** Names the website of `url` `name` when `takes(held)` says so for the name it holds (as `respellTag`). */
  renameWebsite(url: string, given: string, takes: (held: string) => boolean): boolean {
    const name = wellFormed(given.trim()) || url.trim();
    const key = lookupKey('website', wellFormed(url.trim()));
    const found = this.context.records.find<StoredWebsite>('website', key);
    if (!found || found.data.name === name || !takes(found.data.name)) return false;
    this.context.records.put('website', found.id, { ...found.data, name, updated: stamp() }, key);
    this.context.publish({ kind: 'website', id: found.id });
    return true;
  }

  website(id: string): Website {
    const row = this.context.database.prepare(`SELECT r.data AS data, ${WEBSITE_PARTNERS} FROM records r WHERE r.kind = 'website' AND r.id = ?`).get(id) as
      | WebsiteRow
      | undefined;
    if (!row) throw new NotFoundError('website', id);
    return websiteOf(row);
  }

  /** Every website, oldest first, with both sides of its links: the assets and the conversations associated with it. */
  websites(): Website[] {
    return [...this.websitePages()].flat();
  }

  /** The websites a page at a time (see `labelPages`). */
  websitePages(pageSize = LABEL_PAGE, pageLinks = LABEL_PAGE_LINKS): Generator<Website[]> {
    const read = this.context.database.prepare(
      `SELECT r.data AS data, ${WEBSITE_PARTNERS} FROM json_each(?) j CROSS JOIN records r ON r.rowid = j.value ORDER BY j.key`,
    );
    return this.labelPages('website', pageSize, pageLinks, (rowids) => (read.all(JSON.stringify(rowids)) as WebsiteRow[]).map(websiteOf));
  }

  websitesOfAsset(assetId: string): Website[] {
    return this.linkedRecords(assetId, 'website', 'data', -1).map((data) => JSON.parse(data) as Website);
  }

  createWebsite(seed: SeededWebsite): StoredWebsite {
    const url = wellFormed(seed.url.trim());
    if (url.length === 0) throw new InvalidInputError('A website needs a non-empty url');
    checkLimit('urlChars', url.length);
    checkLimit('nameChars', seed.name.trim().length);
    return this.context.transaction(() => {
      const key = lookupKey('website', url);
      const existing = this.context.records.find<StoredWebsite>('website', key)?.data;
      if (existing) return existing;
      const now = stamp();
      const website: StoredWebsite = { id: newId(), url, name: wellFormed(seed.name.trim()) || url, created: now, updated: now };
      this.context.records.put('website', website.id, website, key);
      this.context.publish({ kind: 'website', id: website.id });
      return website;
    });
  }
}
