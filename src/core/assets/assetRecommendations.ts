/** Related and recommended assets: ranked by content similarity (TF-IDF over identifier sub-tokens), use and recency. */
import type { Assets } from '../piecesTypes.ts';
import type { AssetReferenceInput, RecommendationInput, RelatedInput } from './inputs.ts';
import { InvalidInputError } from '../errors.ts';
import { SIMILARITY_CHARS, combinedTermCounts, termCounts } from '../search/related.ts';
import { contentOf } from './content.ts';
import type { AssetStore, RankingFacts } from './assetStore.ts';
import type { AssetRenderer } from './assetRendering.ts';
import type { AssetSimilarity } from './similarity.ts';

const LIST_LIMIT = 50;
/** In larger stores, recommendations rank the assets pointed at plus this many of the newest. */
const RECOMMENDED_RECENT = 500;
/**
 * Distinct assets a related or recommended request compares against: each costs a pass over the
 * corpus, and a UI shows a few. Repeats of one asset count once (with their weights summed).
 */
const MAX_REFERENCES = 64;
/** Text of a related request compared in all (each reference's share is cut to SIMILARITY_CHARS). */
const RELATED_QUERY_CHARS = 4 * SIMILARITY_CHARS;

export class AssetRecommendations {
  private readonly store: AssetStore;
  private readonly similarity: AssetSimilarity;
  private readonly renderer: AssetRenderer;

  constructor(store: AssetStore, similarity: AssetSimilarity, renderer: AssetRenderer) {
    this.store = store;
    this.similarity = similarity;
    this.renderer = renderer;
  }

  /** Assets similar in content to the given ones (TF-IDF over identifier sub-tokens). */
  related(input: RelatedInput | undefined): Assets {
    const given = distinctReferences(input?.iterable ?? []);
    if (given.length === 0) return { iterable: [] };
    const exclude = new Set(given.flatMap((a) => (a.id ? [a.id] : [])));
    const query = combinedTermCounts(this.textsOfInputs(given), RELATED_QUERY_CHARS);
    const similar = this.similarity.current().similar(query, { exclude, limit: LIST_LIMIT });
    return this.renderer.collection(this.store.ordinaryDocs('id', similar.map((s) => s.id)));
  }

  /** Assets ordered for a UI from index-paired interactions and assets (none → by use and recency). */
  recommended(input: RecommendationInput | undefined): Assets {
    const assets = input?.assets?.iterable ?? [];
    const interactions = input?.interactions?.iterable ?? [];
    if (assets.length !== interactions.length) {
      throw new InvalidInputError(`assets (${assets.length}) and interactions (${interactions.length}) must be index-paired`);
    }
    // Repeated references to one asset are compared once, with their weights summed.
    const weights = new Map<AssetReferenceInput, number>();
    const byId = new Map<string, AssetReferenceInput>();
    assets.forEach((asset, i) => {
      const interaction = interactions[i]?.interactions;
      const weight = 1 + (interaction?.touched ? 2 : 0) + (interaction?.scrolled ? 1 : 0);
      const key = asset.id ? (byId.get(asset.id) ?? byId.set(asset.id, asset).get(asset.id)!) : asset;
      weights.set(key, (weights.get(key) ?? 0) + weight);
    });
    const affinity = new Map<string, number>();
    const similarity = this.similarity.current();
    // The most weighted references are compared by content; every one counts for itself.
    const compared = [...weights].sort((a, b) => b[1] - a[1]).slice(0, MAX_REFERENCES);
    for (const [asset, weight] of compared) {
      for (const s of similarity.similar(termCounts(this.textOfInput(asset)))) {
        affinity.set(s.id, (affinity.get(s.id) ?? 0) + weight * s.score);
      }
    }
    for (const [asset, weight] of weights) if (asset.id) affinity.set(asset.id, (affinity.get(asset.id) ?? 0) + weight);
    // A large store ranks what the interactions point at and its newest assets, rather than
    // reading every asset. Ranking reads a few fields of each, not its content.
    const corpus = this.store.rankingFacts(similarity.exact ? undefined : [...new Set([...affinity.keys(), ...this.store.listing.newest(RECOMMENDED_RECENT)])]);
    const newest = Math.max(0, ...corpus.map((facts) => facts.updated));
    const oldest = Math.min(newest, ...corpus.map((facts) => facts.updated));
    const rank = (facts: RankingFacts): number => {
      const recency = newest > oldest ? (facts.updated - oldest) / (newest - oldest) : 0;
      return (affinity.get(facts.id) ?? 0) + 0.1 * Math.log1p(facts.use) + (facts.favorited ? 0.1 : 0) + 0.05 * recency;
    };
    const ordered = corpus.map((facts) => ({ id: facts.id, rank: rank(facts) })).sort((a, b) => b.rank - a.rank);
    return this.renderer.collection(this.store.ordinaryDocs('id', ordered.slice(0, LIST_LIMIT).map((entry) => entry.id)));
  }

  /** The texts of `assets`, each read when asked for (a query's budget stops the reading of stored ones too). */
  private *textsOfInputs(assets: readonly AssetReferenceInput[]): Generator<string> {
    for (const asset of assets) yield this.textOfInput(asset);
  }

  /** The text a reference carries, or else the stored text of the asset it names. */
  private textOfInput(asset: AssetReferenceInput): string {
    const given = (asset.formats?.iterable ?? []).map((f) => (f ? contentOf(f)?.text ?? '' : '')).join('\n');
    if (given.trim() !== '') return given;
    return (asset.id ? this.store.text(asset.id) : undefined) ?? '';
  }
}

/** `assets` with repeats of one id left out, at most MAX_REFERENCES of them. */
function distinctReferences<T extends { readonly id?: string }>(assets: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const asset of assets) {
    if (out.length === MAX_REFERENCES) break;
    if (asset.id) {
      if (seen.has(asset.id)) continue;
      seen.add(asset.id);
    }
    out.push(asset);
  }
  return out;
}
