/**
 * `POST /qgpt/relevance`'s RelevantQGPTSeeds: the best hits of Satchel's code search (the search
 * /search/neural_code makes), each as the asset it names and a seed carrying its text, the way
 * Pieces OS hands them back for a client to pass on as context.
 */
import type { Satchel } from '../../core/satchel.ts';
import type { SemanticQuery } from '../../core/search/hybridSearch.ts';
import type * as W from '../../core/piecesTypes.ts';
import { SATCHEL_APPLICATION } from '../../core/assets/origin.ts';

/** Snippets given back for one query (the context of one question: more would not fit a prompt). */
export const RELEVANT_LIMIT = 10;

export function relevantSeeds(core: Satchel, query: string, semantic: SemanticQuery | undefined): W.QGPTRelevanceOutput['relevant'] {
  if (query.trim() === '') return { iterable: [] };
  const iterable: Array<W.QGPTRelevanceOutput['relevant']['iterable'][number]> = [];
  const { pages } = core.assets.searches.codeSearchPages(query, { transferables: false, pseudo: false, semantic });
  for (const page of pages) {
    for (const hit of page) {
      const raw = core.assets.text(hit.identifier);
      iterable.push({
        id: hit.identifier,
        asset: { id: hit.identifier },
        ...(raw !== undefined
          ? { seed: { type: 'SEEDED_ASSET', asset: { application: SATCHEL_APPLICATION, format: { fragment: { string: { raw } } } } } }
          : {}),
      });
      if (iterable.length >= RELEVANT_LIMIT) return { iterable };
    }
  }
  return { iterable };
}
