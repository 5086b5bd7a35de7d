/**
 * Tags and websites are sets in a record, and each store holds one spelling of a tag (tags compare
 * ignoring case: "React" and "react" are one tag) and one name of a website (identified by its URL)
 * for every snippet that carries it. Two machines that spell one differently must end alike
 * whatever order their syncs run in, so:
 *
 * - In a record both machines changed, a tag's spelling and a website's name merge like a field:
 *   the side that changed it since the last sync wins; both changed it differently (or no common
 *   version): the preferred one below.
 * - Where a record applied here spells a label otherwise than this store does, the store takes the
 *   record's spelling only when it is the preferred one; otherwise the store keeps its own, the
 *   record reads with it here, and the next sync carries it to the other machine, which takes it.
 *   The preferred spelling is a fixed order, the same on every machine, so this ends in one spelling.
 *
 * Preferred: for a tag, the first in code-unit order ("React" before "react"); for a website, a
 * name that is not just its URL, then the first in code-unit order.
 */
import type { VaultWebsite } from './vaultFormat.ts';

export function preferredTag(a: string, b: string): string {
  return a <= b ? a : b;
}

export function preferredSiteName(url: string, a: string, b: string): string {
  if ((a === url) !== (b === url)) return a === url ? b : a;
  return a <= b ? a : b;
}

/** A label's spelling merged like a field (undefined `base`: no common version). */
function merged(base: string | undefined, ours: string, theirs: string, preferred: (a: string, b: string) => string): string {
  if (ours === theirs || ours === base) return theirs;
  if (theirs === base) return ours;
  return preferred(ours, theirs);
}

/** The merged set's tags, each spelled as `merged` decides where both sides hold it. */
export function spelledTags(tags: readonly string[], base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const by = (texts: readonly string[]): Map<string, string> => new Map(texts.map((text) => [text.toLowerCase(), text]));
  const [b, o, t] = [by(base), by(ours), by(theirs)];
  return tags.map((tag) => {
    const key = tag.toLowerCase();
    const [mine, other] = [o.get(key), t.get(key)];
    return mine !== undefined && other !== undefined ? merged(b.get(key), mine, other, preferredTag) : tag;
  });
}

/** The merged set's websites, each named as `merged` decides where both sides hold its URL. */
export function namedWebsites(sites: readonly VaultWebsite[], base: readonly VaultWebsite[], ours: readonly VaultWebsite[], theirs: readonly VaultWebsite[]): VaultWebsite[] {
  const by = (list: readonly VaultWebsite[]): Map<string, string> => new Map(list.map((site) => [site.url, site.name]));
  const [b, o, t] = [by(base), by(ours), by(theirs)];
  return sites.map((site) => {
    const [mine, other] = [o.get(site.url), t.get(site.url)];
    return mine !== undefined && other !== undefined ? { url: site.url, name: merged(b.get(site.url), mine, other, (x, y) => preferredSiteName(site.url, x, y)) } : site;
  });
}
