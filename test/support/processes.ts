import { readdirSync, readFileSync } from 'node:fs';

/** Whether a process with this id exists (signal 0 checks without touching it). */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The child of `pid` whose command line matches `script` (Linux's /proc; undefined elsewhere or
 * when none runs it yet: a fork not yet exec'd still shows its parent's command line).
 */
export function childRunning(pid: number, script: RegExp): number | undefined {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    return children.find((child) => {
      try {
        return script.test(readFileSync(`/proc/${child}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}
