// Reading package-lock.json (v3) the way Node resolves modules; shared by the packaging script and
// the lock-sync test.

/**
 * The lock key (`node_modules/…`) Node's resolution finds for `name` when required from the locked
 * package at `from` ('' is the project), walking up the node_modules chain; undefined when missing.
 * @param {Record<string, unknown>} packages the lock's `packages`
 * @param {string} from
 * @param {string} name
 * @returns {string | undefined}
 */
export function resolveLocked(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}
