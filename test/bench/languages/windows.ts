/** How the benchmark cuts windows out of files (extract.ts, linguist.ts). */

/** mulberry32: a small seeded generator, so the sets are the same on every run. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const commentLine = /^\s*(#|\/\/|\/\*|\*|--|;|%|<!--|'''|""")/;

/** A window someone would save as a snippet: mostly code, not a licence header, not minified. */
export function usable(lines: readonly string[]): boolean {
  const filled = lines.filter((line) => line.trim() !== '');
  if (filled.length < Math.max(3, lines.length * 0.6)) return false;
  if (lines.some((line) => line.length > 300)) return false;
  const comments = filled.filter((line) => commentLine.test(line)).length;
  return comments <= filled.length * 0.5;
}

