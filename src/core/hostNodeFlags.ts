/**
 * V8's flags for the data host's Node processes, given before the script: the host a window starts
 * and the one `satchel mcp-stdio` starts (hostCommand.ts), and the import process it forks
 * (importProcess.ts), which allocates as fast as the host's first sync. Flags a caller gives come
 * after these, so theirs win.
 *
 * - The young generation at most 2 MB a semi-space instead of V8's 16: the first sync and the import
 *   allocate fast enough that V8 grows it to its most, and the process's RSS keeps what it grew to.
 *   At 100k snippets the first sync's peak went from 244–255 to 187–234 MB at 4 MB, for about 3%
 *   more of the host's CPU (docs/performance.md, "A smaller young generation"). Measured again once
 *   the old generation's growth was bounded too (below) and the host's own bulk writes were cut
 *   (stop 41), 2 MB gave every bulk phase a 6–13 MB lower peak than 4 MB for the same CPU, 1 MB no
 *   lower than 2 (docs/performance.md, "Latest (stop 41)").
 * - The old generation may grow to 1.2 times what a full collection left alive before the next is
 *   due, where V8 otherwise picks up to 2–4 times for a process that allocates fast: the bulk phases
 *   (a sync, an import, a back-fill) allocate fast in bursts, and the heap they grew stayed resident.
 *   At 100k, phases back to back on code-server's Node 24: the import's peak 190–193 → 168–174 MB,
 *   the first sync's 161–163 → 155–156, the host's CPU the same (docs/performance.md, "The old
 *   generation's growth").
 */
export const DATA_HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=20'];

/**
 * Set in the environment of a host started without the flags because its runtime refused them
 * (hostSupervisor.ts): the processes it forks from the same runtime go without them too.
 */
export const NO_NODE_FLAGS_ENV = 'SATCHEL_NO_NODE_FLAGS';

/** The flags for a process forked from this one's runtime. */
export function dataHostNodeFlags(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  return env[NO_NODE_FLAGS_ENV] === '1' ? [] : DATA_HOST_NODE_FLAGS;
}
