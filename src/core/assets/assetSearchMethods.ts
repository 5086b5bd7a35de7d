/**
 * The search and recommendation methods of the assets area (AssetService inherits them): each
 * hands its call to AssetSearch (assetSearch.ts) or AssetRecommendations (assetRecommendations.ts),
 * which AssetService builds. Kept apart so the service's own file holds its composition and reads.
 */
import type { Assets, AssetsSearchWithFiltersOutput, ClassificationSpecific, SearchedAssets } from '../wire.ts';
import type { SemanticQuery } from '../search/hybridSearch.ts';
import type { AssetSearch, SearchedPages, SearchOptions } from './assetSearch.ts';
import type { AssetRecommendations } from './assetRecommendations.ts';
import type { RecommendationInput, RelatedInput, SearchWithFiltersInput } from './inputs.ts';

export abstract class AssetSearchMethods {
  protected abstract readonly searches: AssetSearch;
  protected abstract readonly recommendations: AssetRecommendations;

  search(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedAssets {
    return this.searches.search(input, options);
  }

  searchPages(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedPages {
    return this.searches.searchPages(input, options);
  }

  fullTextSearch(query: string, options: SearchOptions): SearchedAssets {
    return this.searches.fullTextSearch(query, options);
  }

  fullTextSearchPages(query: string, options: SearchOptions): SearchedPages {
    return this.searches.fullTextSearchPages(query, options);
  }

  codeSearch(query: string, options: SearchOptions): SearchedAssets {
    return this.searches.codeSearch(query, options);
  }

  codeSearchPages(query: string, options: SearchOptions): SearchedPages {
    return this.searches.codeSearchPages(query, options);
  }

  /** Ids of the ordinary assets carrying every one of `tags` (in a language when given), newest first, at most `limit`; no document is read. */
  taggedIds(tags: readonly string[], limit: number, language?: ClassificationSpecific): string[] {
    return this.searches.taggedIds(tags, limit, language);
  }

  /** Ids of the best ordinary assets for a query carrying every one of `tags`, in a language when given; no document is read. */
  queryIds(query: string, filter: { tags: readonly string[]; language?: ClassificationSpecific | undefined; limit: number; semantic?: SemanticQuery | undefined }): string[] {
    return this.searches.queryIds(query, filter);
  }

  searchWithFilters(input: SearchWithFiltersInput, options: SearchOptions): AssetsSearchWithFiltersOutput {
    return this.searches.searchWithFilters(input, options);
  }

  searchPagesWithFilters(input: SearchWithFiltersInput, options: SearchOptions): SearchedPages {
    return this.searches.searchPagesWithFilters(input, options);
  }

  related(input: RelatedInput | undefined): Assets {
    return this.recommendations.related(input);
  }

  recommended(input: RecommendationInput | undefined): Assets {
    return this.recommendations.recommended(input);
  }
}
