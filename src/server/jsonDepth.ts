/**
 * The shape of a JSON text found in one pass, before it is parsed: the deepest bracket nesting and
 * the number of strings, objects and arrays (brackets and quotes inside strings are skipped).
 * Self-contained (no imports, no outer names): the JSON worker runs its source text.
 */
export function jsonShape(text: string): { depth: number; nodes: number } {
  let depth = 0;
  let deepest = 0;
  let nodes = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
      nodes++;
    } else if (c === 0x7b || c === 0x5b) {
      nodes++;
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: deepest, nodes };
}
