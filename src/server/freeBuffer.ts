/**
 * Lets go of a buffer's memory now. A large body's buffer otherwise lives until V8 next collects
 * the generation it reached: a body read over several turns of the event loop reaches the old
 * generation, which an idle host may not collect for minutes (issue 34: an import's request bodies
 * stayed in the data host after the import had them).
 */

/**
 * Detaches `buffer` (every view of it reads as empty from then on) with ES2024's `transfer(0)`,
 * which frees its memory at once (Node 21 and later; where the runtime lacks it, the collector
 * frees it as before). Only for a buffer nothing else may still read.
 */
export function freeNow(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer && 'transfer' in buffer && typeof buffer.transfer === 'function') buffer.transfer(0);
}

/** The buffer a Buffer views, when it views all of it (a small Buffer may share one of Node's pools). */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : undefined;
}
