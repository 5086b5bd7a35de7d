/**
 * V8's flags for the data host's Node processes, given before the script: the host a window starts
 * and the one `satchel mcp-stdio` starts (hostCommand.ts), and the import process it forks
 * (importProcess.ts), which allocates as fast as the host's first sync. The young generation at
 * most 4 MB a semi-space instead of V8's 16: the first sync and the import allocate fast enough
 * that V8 grows it to its most, and the process's RSS keeps what it grew to. At 100k snippets the
 * first sync's peak went from 244–255 to 187–234 MB for about 3% more of the host's CPU; 1 and 2 MB
 * cut it less (a smaller young generation promotes more to the old one) (docs/performance.md, "A
 * smaller young generation"). Flags a caller gives come after these, so theirs win.
 */
export const DATA_HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * Set in the environment of a host started without the flags because its runtime refused them
 * (hostSupervisor.ts): the processes it forks from the same runtime go without them too.
 */
export const NO_NODE_FLAGS_ENV = 'SATCHEL_NO_NODE_FLAGS';

/** The flags for a process forked from this one's runtime. */
export function dataHostNodeFlags(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  return env[NO_NODE_FLAGS_ENV] === '1' ? [] : DATA_HOST_NODE_FLAGS;
}
