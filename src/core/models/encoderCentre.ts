/**
 * The encoder's vectors are moved to be centred on the origin before use. Universal Sentence
 * Encoder Lite puts every text in one narrow cone (unrelated snippets score a cosine of 0.5–0.75),
 * so what two texts share with every other text outweighs what they share with each other;
 * subtracting the mean direction of a reference corpus (scripts/encoderCentre.ts) leaves the
 * differences, and ranks by meaning better (docs/search.md has the figures).
 */
import reference from './encoderCentre.json' with { type: 'json' };

const CENTRE: readonly number[] = reference.centre;

/** The unit vector of (unit(raw) − centre). */
export function centred(raw: Float32Array): number[] {
  const unit = normalized(Array.from(raw));
  return CENTRE.length === unit.length ? normalized(unit.map((x, i) => x - CENTRE[i]!)) : unit;
}

function normalized(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((x) => x / norm);
}
