/**
 * Evaluation of POST /assets/search filters (AssetFilters) against an asset. Filters in a list
 * combine with AND unless the list says `type: "OR"`; the fields of one filter always combine with
 * AND; `operations` nests another list.
 */
import type { AssetFilter, AssetFilters } from '../wire.ts';
import { containsPhrase } from '../search/query.ts';

/** What a filter can see of an asset. */
export interface FilterSubject {
  readonly name: string;
  readonly text: string;
  readonly languages: readonly string[];
  /** Tag ids and texts. */
  readonly tags: readonly string[];
  /** Website ids, urls and names. */
  readonly websites: readonly string[];
  readonly annotations: readonly string[];
  readonly created: string;
  readonly updated: string;
}

export function matchesFilters(subject: FilterSubject, filters: AssetFilters | undefined, caseSensitive = false): boolean {
  if (!filters || filters.iterable.length === 0) return true;
  const results = filters.iterable.map((filter) => matchesFilter(subject, filter, caseSensitive));
  return filters.type === 'OR' ? results.some(Boolean) : results.every(Boolean);
}

function hasAll(values: readonly string[], wanted: readonly string[] | undefined): boolean {
  if (!wanted) return true;
  const own = new Set(values.map((v) => v.toLowerCase()));
  return wanted.every((w) => own.has(w.toLowerCase()));
}

function inRange(value: string, range: AssetFilter['created']): boolean {
  if (!range) return true;
  const t = Date.parse(value);
  const from = range.from ? Date.parse(range.from.value) : undefined;
  const to = range.to ? Date.parse(range.to.value) : undefined;
  if (from !== undefined && to !== undefined && range.between === false) return t < from || t > to;
  if (from !== undefined && t < from) return false;
  if (to !== undefined && t > to) return false;
  return true;
}

function matchesFilter(subject: FilterSubject, filter: AssetFilter, caseSensitive: boolean): boolean {
  if (filter.classification && !subject.languages.includes(filter.classification)) return false;
  if (!hasAll(subject.tags, filter.tags)) return false;
  if (!hasAll(subject.websites, filter.websites)) return false;
  // Persons are not stored by Satchel, so a persons filter can only match when it asks for none.
  if (filter.persons && filter.persons.length > 0) return false;
  const phrase = filter.phrase;
  if (phrase?.value) {
    const explicit = phrase.title === true || phrase.content === true || phrase.annotation === true;
    const places: string[] = [];
    if (!explicit || phrase.title) places.push(subject.name);
    if (!explicit || phrase.content) places.push(subject.text);
    if (!explicit || phrase.annotation) places.push(...subject.annotations);
    if (!places.some((place) => containsPhrase(place, phrase.value as string, caseSensitive))) return false;
  }
  if (!inRange(subject.created, filter.created)) return false;
  if (!inRange(subject.updated, filter.updated)) return false;
  if (filter.operations && !matchesFilters(subject, filter.operations, caseSensitive)) return false;
  return true;
}
