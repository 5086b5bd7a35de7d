/**
 * The data host's CPU priority while bulk work runs (a sync, an import, the back-fill, a compaction
 * pass: core/bulkWork.ts): below the editor's, so that on a machine with few cores the extension
 * host and the window go first; back to normal once the last bulk work ends, so that everyday
 * answers (completions, searches) are not slowed by a busy machine.
 *
 * How, per platform:
 * - Linux, in a session of its own (the host a window starts is detached): its *autogroup*. With
 *   autogroup scheduling (most kernels; the default where the process is in the root CPU cgroup),
 *   each session shares the CPU as one, whatever its threads' nice values: the host's children at
 *   nice 10 still weighed as much as the whole editor (the day's bench: the extension host waited
 *   for a core 2.4 s in a 55 s sync). The autogroup's nice may be raised and set back to 0 by an
 *   unprivileged process, at most once per 100 ms on the whole machine (EAGAIN: tried again).
 *   Set back to what it was before, which a user who lowered the host by hand keeps.
 *   A host started from a terminal shares the terminal's session and leaves it alone.
 * - Windows: the process's priority class (below normal, then normal), which it may set both ways.
 * - Elsewhere (macOS; Linux outside its own session) nothing: an unprivileged process cannot take
 *   its own priority back, and a host always below normal would answer slowly on a busy machine.
 *   The host's children are lowered there as everywhere (core/childPriority.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';
import type { Disposable } from '../core/events.ts';

/** Nice 10, as the host's background children (core/childPriority.ts). */
const BACKGROUND_NICE = 10;
/** The kernel takes one autogroup change per 100 ms machine-wide. */
const RETRY_MS = 120;

export interface BackgroundPriority extends Disposable {
  /** Lowers the host's priority (true) or sets it back (false). */
  set(background: boolean): void;
  /** How the priority is lowered here (for the log), or undefined when it cannot be. */
  readonly means: 'autogroup' | 'priority class' | undefined;
}

export interface PriorityPlatform {
  readonly platform: NodeJS.Platform;
  /** Whether the process leads a session of its own (Linux: /proc/self/stat). */
  readonly sessionLeader: () => boolean;
  /** The autogroup's nice value now (Linux: /proc/self/autogroup). */
  readonly readAutogroupNice: () => number;
  readonly writeAutogroupNice: (nice: number) => void;
  /** The process's priority now, on Node's scale (0 normal, 10 below normal, 19 low). */
  readonly getPriorityClass: () => number;
  readonly setPriorityClass: (priority: number) => void;
}

export function backgroundPriority(report: (message: string) => void, platform: PriorityPlatform = nodePlatform()): BackgroundPriority {
  const means = platform.platform === 'win32' ? 'priority class' : platform.platform === 'linux' && platform.sessionLeader() ? 'autogroup' : undefined;
  let wanted = false;
  let applied = false;
  /** What the priority was before the first lowering (0 = normal, higher = lower): set back to it, never above. */
  let found: number | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failed = false;
  const apply = (): void => {
    retry = undefined;
    if (wanted === applied || failed) return;
    try {
      found ??= means === 'autogroup' ? platform.readAutogroupNice() : platform.getPriorityClass();
      const lowered = Math.max(found, means === 'autogroup' ? BACKGROUND_NICE : constants.priority.PRIORITY_BELOW_NORMAL);
      // A host already at the background level or lower (set so by the user) is left as it is.
      if (lowered !== found) {
        const level = wanted ? lowered : found;
        if (means === 'autogroup') platform.writeAutogroupNice(level);
        else platform.setPriorityClass(level);
      }
      applied = wanted;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        retry = setTimeout(apply, RETRY_MS);
        retry.unref();
        return;
      }
      failed = true;
      // A kernel built without autogroups has no file to write: nothing to say.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      report(`Could not change the host's CPU priority (${means}): ${(error as Error).message}; it keeps its priority.`);
    }
  };
  return {
    means,
    set(background) {
      if (means === undefined) return;
      wanted = background;
      if (retry === undefined) apply();
    },
    dispose() {
      clearTimeout(retry);
      retry = undefined;
      // A host that closes mid-sync leaves its session's priority as it found it.
      if (applied) {
        wanted = false;
        apply();
      }
    },
  };
}

function nodePlatform(): PriorityPlatform {
  return {
    platform: process.platform,
    sessionLeader: () => {
      try {
        // Fields after the command's closing parenthesis: state, ppid, pgrp, session.
        return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[3]) === process.pid;
      } catch {
        return false;
      }
    },
    readAutogroupNice: () => Number(/nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))?.[1] ?? 0),
    writeAutogroupNice: (nice) => writeFileSync('/proc/self/autogroup', `${nice}\n`),
    getPriorityClass: () => getPriority(process.pid),
    setPriorityClass: (priority) => setPriority(process.pid, priority),
  };
}
