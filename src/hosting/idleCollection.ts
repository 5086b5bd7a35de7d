/**
 * The data host gives back what its work left behind once it is idle. V8 collects when its
 * allocations ask for it, not when a process goes quiet: after the start's warm-up (the title index
 * of 100k snippets), a search and some saves, a host that then waits for the next keystroke kept
 * 32 MB of young generation, 26 MB of let-go array buffers and a third of its old generation as
 * garbage (profiled at 100k snippets: 193–206 MB resident, 115 MB after one full collection). So,
 * every few seconds, when the heap has grown by GROWTH_BYTES since the last collection and the
 * event loop was idle through the last check, the host collects once, shrinking its heap as V8 does
 * on a low-memory signal; then not again until the heap grows again.
 *
 * Bulk work (a sync, an import, a back-fill, a compaction pass) is often followed by more at once
 * (the scripted day runs them back to back), leaving no idle time: when one ends (`afterWork`),
 * also while another goes on, the host collects on its next turn if its heap grew half as much. At
 * 100k snippets a first sync left the host at 150 MB and the import right after it started there and
 * peaked at 162; collected between them, the import started at 123 MB and peaked at 155
 * (docs/performance.md).
 *
 * Only for the host as its own process (the CLI): a collection holds the event loop for 110–220 ms at 100k,
 * which a quiet data host can spare and an editor's extension host could not.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Disposable } from '../core/events.ts';

const CHECK_MS = 5_000;
/** Heap growth (V8's committed heap and memory outside it) since the last collection that is worth one. */
const GROWTH_BYTES = 16 * 2 ** 20;
/** The event loop was this busy at most through the last check (5 s: 100 ms of work). */
const IDLE_SHARE = 0.02;

export interface IdleCollectionOptions {
  readonly checkMs?: number;
  readonly growthBytes?: number;
  /** A full, shrinking collection (tests give their own). */
  readonly collect?: () => void;
  /** The heap's size now (V8's committed heap plus its external memory). */
  readonly heapBytes?: () => number;
  /** The event loop's busy share since the last call (0 to 1). */
  readonly busyShare?: () => number;
}

export interface IdleCollector extends Disposable {
  /** Collects now (after the start's warm-up, which leaves the most behind and is followed by no idle time when a window is busy). */
  collectNow(): void;
  /** Bulk work ended: collects on the next turn of the event loop if the heap grew (see the module comment). */
  afterWork(): void;
}

/** Collects after work once the host is idle (see the module comment); undefined when this runtime has no way to. */
export function collectWhenIdle(options: IdleCollectionOptions = {}): IdleCollector | undefined {
  const collect = options.collect ?? fullCollection();
  if (collect === undefined) return undefined;
  const heapBytes = options.heapBytes ?? committedHeap;
  const busyShare = options.busyShare ?? eventLoopBusyShare();
  const growth = options.growthBytes ?? GROWTH_BYTES;
  let afterLast = heapBytes();
  const collectNow = (): void => {
    collect();
    afterLast = heapBytes();
  };
  /** Collects if the heap grew by `enough` since the last collection and a collection is `due` now. */
  const collectIfGrown = (due = true, enough = growth): void => {
    const heap = heapBytes();
    // A heap that shrank by itself sets the mark lower: growth counts from there.
    if (heap < afterLast) afterLast = heap;
    if (due && heap - afterLast >= enough) collectNow();
  };
  // What bulk work leaves is mostly garbage, and the next bulk work would pile onto it: half as much growth is worth a collection then.
  const afterWorkGrowth = growth / 2;
  const timer = setInterval(() => collectIfGrown(busyShare() <= IDLE_SHARE), options.checkMs ?? CHECK_MS);
  timer.unref();
  let afterWork: NodeJS.Immediate | undefined;
  return {
    collectNow,
    afterWork: () => {
      afterWork ??= setImmediate(() => {
        afterWork = undefined;
        collectIfGrown(true, afterWorkGrowth);
      }).unref();
    },
    dispose: () => {
      clearInterval(timer);
      if (afterWork) clearImmediate(afterWork);
    },
  };
}

function committedHeap(): number {
  const stats = getHeapStatistics();
  return stats.total_heap_size + stats.external_memory;
}

function eventLoopBusyShare(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

type GcFunction = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's collection as `--expose-gc` gives it, asked for with the "last resort" flavour: every
 * space collected and shrunk, the young generation's pages given back (as on a low-memory
 * signal). The flag is set at run time, so a host started without it (by hand, by a tool) has it
 * too; undefined if this runtime refuses.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    let gc = (globalThis as { gc?: GcFunction }).gc;
    if (gc === undefined) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as GcFunction | undefined;
    }
    if (typeof gc !== 'function') return undefined;
    const found = gc;
    return () => found({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    return undefined;
  }
}
