/**
 * The data host's background children (the import process, the model runtimes, git during a sync)
 * start below the editor's CPU priority: on a machine with few cores an import or a back-fill then
 * waits for the cores VS Code's extension host wants, at the cost of taking longer on a busy machine.
 * The data host itself keeps its priority: it answers the editor's requests.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/** Nice 10 on Unix; on Windows Node maps it to BELOW_NORMAL_PRIORITY_CLASS. */
export const BACKGROUND_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

let reported = false;

/**
 * Lowers a just-spawned child to BACKGROUND_PRIORITY (or leaves it where it is when this process
 * already runs lower). Never fatal: a failure (the child already gone, a platform that refuses) is
 * reported once per process (as a warning unless `report` is given: the data host's log keeps either).
 */
export function lowerPriority(child: Pick<ChildProcess, 'pid'>, report: (message: string) => void = warn): void {
  const pid = child.pid;
  // No pid: the spawn failed (git missing), and the child's 'error' says so.
  if (pid === undefined) return;
  try {
    const target = Math.max(getPriority(), BACKGROUND_PRIORITY);
    setPriority(pid, target);
    // Linux's setpriority applies to one thread: the child's first thread is lowered above, and the
    // threads it starts from now on inherit it; the few a Node child started before (V8's, libuv's)
    // are lowered here. Other platforms set the whole process.
    if (process.platform === 'linux') for (const tid of threadsOf(pid)) if (tid !== pid) lowerThread(tid, target);
  } catch (error) {
    // A child already gone has nothing left to lower.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    if (reported) return;
    reported = true;
    report(`Could not lower the priority of a background process (${pid}): ${(error as Error).message}; it runs at the host's priority.`);
  }
}

function lowerThread(tid: number, priority: number): void {
  try {
    setPriority(tid, priority);
  } catch {
    // The thread ended since it was listed.
  }
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter((tid) => Number.isInteger(tid));
  } catch {
    return [];
  }
}

function warn(message: string): void {
  process.emitWarning(message, { code: 'SATCHEL_PRIORITY' });
}
