/** The SQL of a search by tags (AssetListing.carrying): which way it goes, and the statement that lists a tag's assets from its links. */

/** A tag carried by more assets than this is searched walking the listing index, not from its links. */
export const WALK_FROM = 2000;

/** How many assets carry a tag, counted up to ?2. */
export const COUNT_TAGGED = `SELECT count(*) AS n FROM (SELECT 1 FROM links WHERE a_kind = 'tag' AND a_id = ?1 AND b_kind = 'asset' LIMIT ?2)`;

/**
 * The assets carrying tag ?1 (and the tags of the JSON array ?4) from the tag's links, newest
 * first; pseudo ones when ?2, only of language ?3 when given. Each asset's facts are read by a
 * lookup on its key and the other tags by their links' keys: no statement joins tables, so every
 * lookup is an index search whatever the table statistics say (joined, and planned on statistics
 * from when the store held one snippet, every asset was scanned per link: 293 s for 10k snippets).
 */
export const TAGGED_BY_LINKS = `WITH tagged AS MATERIALIZED (
    SELECT l.b_id AS id,
      (SELECT json_array(rowid, created, octet_length(data), suggested, pseudo, language) FROM assets WHERE id = l.b_id) AS f
    FROM links l WHERE l.a_kind = 'tag' AND l.a_id = ?1 AND l.b_kind = 'asset')
  SELECT x.f ->> 0 AS rowid, x.id AS id, x.f ->> 2 AS size FROM tagged x
  WHERE x.f IS NOT NULL AND x.f ->> 3 = 0 AND (x.f ->> 4 = 0 OR ?2) AND (x.f ->> 5 = ?3 OR ?3 IS NULL)
    AND NOT EXISTS (SELECT 1 FROM json_each(?4) t WHERE NOT EXISTS (
      SELECT 1 FROM links m WHERE m.a_kind = 'asset' AND m.a_id = x.id AND m.b_kind = 'tag' AND m.b_id = t.value))
  ORDER BY x.f ->> 1 DESC, x.f ->> 0 DESC`;
