/**
 * `POST /qgpt/relevance`'s RelevantQGPTSeeds: the best hits of Satchel's code search (the search
 * /search/neural_code makes), each as the asset it names and a seed carrying its text, the way
 * Pieces OS hands them back for a client to pass on as context.
 */
import type { Satchel } from '../../core/satchel.ts';
import type { SemanticQuery } from '../../core/search/hybridSearch.ts';
import type * as W from '../../core/piecesTypes.ts';
import { SATCHEL_APPLICATION } from '../../core/assets/origin.ts';
import { NotFoundError } from '../../core/errors.ts';

/** Snippets given back for one query (the context of one question: more would not fit a prompt). */
export const RELEVANT_LIMIT = 10;
/**
 * Characters of a snippet's text a seed carries: a question takes the first 12,000 of each (the
 * copilot's context), get_snippet shows 256 KiB. Read from a large text's stored head, so an older
 * store's 60 MB text is not read whole, ten a call, to be cut by whoever asks.
 */
export const SEED_CHARS = 256 * 1024;

export function relevantSeeds(core: Satchel, query: string, semantic: SemanticQuery | undefined): W.QGPTRelevanceOutput['relevant'] {
  if (query.trim() === '') return { iterable: [] };
  const iterable: Array<W.QGPTRelevanceOutput['relevant']['iterable'][number]> = [];
  const { pages } = core.assets.searches.codeSearchPages(query, { transferables: false, pseudo: false, semantic });
  for (const page of pages) {
    for (const hit of page) {
      const raw = openingOf(core, hit.identifier);
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

/** The first SEED_CHARS characters of the snippet's text ('' when binary), or undefined when it is gone. */
function openingOf(core: Satchel, id: string): string | undefined {
  try {
    return core.assets.opening(id, SEED_CHARS).text;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
