/**
 * Counts the reads of a snippet's whole text a route makes, by wrapping the core's two whole-text
 * readers: a door over a large snippet should read its stored head, not its 60 MB text.
 */
import type { Satchel } from '../../src/core/satchel.ts';

/** Records each whole-text read of `core`'s assets from now on into `reads`, as `reader(id)`. */
export function recordWholeReads(core: Satchel, reads: string[] = []): string[] {
  const assets = core.assets;
  const text = assets.text.bind(assets);
  assets.text = (asset) => {
    reads.push(`assets.text(${asset})`);
    return text(asset);
  };
  const get = assets.get.bind(assets);
  assets.get = (asset, options) => {
    if (options?.transferables !== false) reads.push(`assets.get(${asset}) with its content`);
    return get(asset, options);
  };
  return reads;
}
