/** Seeded randomness for training, so a model trains the same on every run. */

/** A linear congruential generator: the one the shipped regression was trained with (keep it, or the model changes). */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Fisher–Yates, in place: each epoch's order of the examples. */
export function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
