/**
 * Evaluation of POST /assets/search filters (AssetFilters) against an asset. Filters in a list
 * combine with AND unless the list says `type: "OR"`; the fields of one filter always combine with
 * AND; `operations` nests another list.
 */
import type { AssetFilterInput as AssetFilter, AssetFiltersInput as AssetFilters } from './inputs.ts';
import { InvalidInputError } from '../errors.ts';

/**
 * Filters in one search, nested ones included: a search form makes a handful, and each one is
 * checked against every hit, so ten thousand of them made one search cost tens of seconds.
 */
export const MAX_FILTERS = 64;
/** A phrase is lower-cased and looked for in every hit's text, once per filter. */
export const MAX_PHRASE_CHARS = 4_096;

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

/** Refuses more than MAX_FILTERS filters (counting nested ones) or a longer phrase than MAX_PHRASE_CHARS, before any is evaluated. */
export function checkFilters(filters: AssetFilters | undefined): void {
  let count = 0;
  const pending: AssetFilters[] = filters ? [filters] : [];
  for (let list = pending.pop(); list !== undefined; list = pending.pop()) {
    for (const filter of list.iterable) {
      if (++count > MAX_FILTERS) throw new InvalidInputError(`A search takes at most ${MAX_FILTERS} filters (nested ones included)`);
      if ((filter.phrase?.value?.length ?? 0) > MAX_PHRASE_CHARS) {
        throw new InvalidInputError(`A filter phrase is at most ${MAX_PHRASE_CHARS} characters`);
      }
      if (filter.operations) pending.push(filter.operations);
    }
  }
}

/** Every filter of `filters`, nested ones included. */
function* eachFilter(filters: AssetFilters | undefined): Generator<AssetFilter> {
  const pending: AssetFilters[] = filters ? [filters] : [];
  for (let list = pending.pop(); list !== undefined; list = pending.pop()) {
    for (const filter of list.iterable) {
      yield filter;
      if (filter.operations) pending.push(filter.operations);
    }
  }
}

/** Whether any filter looks for a phrase: only then is an asset's text part of what they see. */
export function filtersReadText(filters: AssetFilters | undefined): boolean {
  for (const filter of eachFilter(filters)) if (filter.phrase?.value) return true;
  return false;
}

/** The tag values (ids or texts) any filter asks for; an asset's other tags cannot change a match. */
export function filterTagValues(filters: AssetFilters | undefined): string[] {
  return [...new Set([...eachFilter(filters)].flatMap((filter) => filter.tags ?? []))];
}

export function matchesFilters(subject: FilterSubject, filters: AssetFilters | undefined, caseSensitive = false): boolean {
  if (!filters || filters.iterable.length === 0) return true;
  return matchesList(new Places(subject, caseSensitive), filters);
}

/**
 * The texts phrases are looked for in, lower-cased once per asset (when the search ignores case)
 * rather than once per filter.
 */
class Places {
  readonly subject: FilterSubject;
  readonly caseSensitive: boolean;
  private folded: { name: string; text: string; annotations: readonly string[] } | undefined;

  constructor(subject: FilterSubject, caseSensitive: boolean) {
    this.subject = subject;
    this.caseSensitive = caseSensitive;
  }

  get texts(): { name: string; text: string; annotations: readonly string[] } {
    const { name, text, annotations } = this.subject;
    this.folded ??= this.caseSensitive
      ? { name, text, annotations }
      : { name: name.toLowerCase(), text: text.toLowerCase(), annotations: annotations.map((a) => a.toLowerCase()) };
    return this.folded;
  }

  fold(phrase: string): string {
    return this.caseSensitive ? phrase : phrase.toLowerCase();
  }
}

function matchesList(places: Places, filters: AssetFilters): boolean {
  const results = filters.iterable.map((filter) => matchesFilter(places, filter));
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

function matchesFilter(places: Places, filter: AssetFilter): boolean {
  const subject = places.subject;
  if (filter.classification && !subject.languages.includes(filter.classification)) return false;
  if (!hasAll(subject.tags, filter.tags)) return false;
  if (!hasAll(subject.websites, filter.websites)) return false;
  // Persons are not stored by Satchel, so a persons filter can only match when it asks for none.
  if (filter.persons && filter.persons.length > 0) return false;
  const phrase = filter.phrase;
  if (phrase?.value) {
    const explicit = phrase.title === true || phrase.content === true || phrase.annotation === true;
    const { name, text, annotations } = places.texts;
    const wanted = places.fold(phrase.value);
    const found =
      ((!explicit || phrase.title === true) && name.includes(wanted)) ||
      ((!explicit || phrase.content === true) && text.includes(wanted)) ||
      ((!explicit || phrase.annotation === true) && annotations.some((annotation) => annotation.includes(wanted)));
    if (!found) return false;
  }
  if (!inRange(subject.created, filter.created)) return false;
  if (!inRange(subject.updated, filter.updated)) return false;
  if (filter.operations && filter.operations.iterable.length > 0 && !matchesList(places, filter.operations)) return false;
  return true;
}
