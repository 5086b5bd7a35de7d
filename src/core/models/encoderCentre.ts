/**
 * The built-in sentence encoder's mean direction over reference code (scripts/encoderCentre.ts):
 * the prior of the centre its vectors are compared from. Universal Sentence Encoder Lite puts
 * every text in one narrow cone (unrelated snippets score a cosine of 0.5–0.75), so what two texts
 * share with every other text outweighs what they share with each other; search compares them
 * after moving them by the library's own mean, which this stands in for while the library is small
 * (vectorIndex.ts's centring; docs/search.md has the figures).
 */
import type { EmbeddingCentre } from './embedder.ts';
import reference from './encoderCentre.json' with { type: 'json' };

/**
 * The reference mean counts as this many snippets: a library of a few snippets is centred on it,
 * one of thousands on its own mean (at 1k, 50 measured as well as the library's mean alone, 100
 * and more worse; docs/search.md).
 */
const PRIOR_WEIGHT = 50;

export const ENCODER_CENTRE: EmbeddingCentre = { prior: reference.centre, weight: PRIOR_WEIGHT };
