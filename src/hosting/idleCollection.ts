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
 * A soft limit on resident memory (as Go's GOMEMLIMIT): V8 grows its old generation by a share of
 * what it holds before it collects, so a burst of garbage (the secrets scan of an import's 10k
 * snippets: +7 MB of heap in 1.7 s, while the back-fill starts) pushes the host past its budget with
 * memory it would give back at once. Above `softLimitBytes` resident, each time V8 has collected
 * (so only while the host allocates, never while it waits), the host collects in full if its heap
 * grew by LIMIT_GROWTH_BYTES since the last collection, at most once per gap after the last one the
 * limit made (2 s, or twenty times what that collection took: a larger heap's collections take longer); a collection that gives
 * little back (the memory is the work's own, not garbage) doubles the gap, up to a minute, so a host
 * whose working set is simply larger than the limit (a library of a million snippets) pays for a
 * failed try rarely.
 *
 * Only for the host as its own process (the CLI): a collection holds the event loop for 110–220 ms at 100k,
 * which a quiet data host can spare and an editor's extension host could not.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance, PerformanceObserver, type EventLoopUtilization } from 'node:perf_hooks';
import type { Disposable } from '../core/events.ts';

const CHECK_MS = 5_000;
/** Heap growth (V8's committed heap and memory outside it) since the last collection that is worth one. */
const GROWTH_BYTES = 16 * 2 ** 20;
/** The event loop was this busy at most through the last check (5 s: 100 ms of work). */
const IDLE_SHARE = 0.02;
/** Over the soft limit: heap growth since the last collection that is worth one. */
const LIMIT_GROWTH_BYTES = 4 * 2 ** 20;
/** Over the soft limit: the shortest time between two collections (one takes 30–90 ms at 100k while a sync runs). */
const LIMIT_GAP_MS = 2_000;
/** Over the soft limit: collections take at most this share of the time (a larger heap's take longer: the gap grows with them). */
const LIMIT_TIME_SHARE = 0.05;
const LIMIT_MAX_GAP_MS = 64_000;

export interface IdleCollectionOptions {
  readonly checkMs?: number;
  readonly growthBytes?: number;
  /** A full, shrinking collection (tests give their own). */
  readonly collect?: () => void;
  /** The heap's size now (V8's committed heap plus its external memory). */
  readonly heapBytes?: () => number;
  /** The event loop's busy share since the last call (0 to 1). */
  readonly busyShare?: () => number;
  /** Resident memory above which the host collects as its heap grows (see the module comment); undefined: no limit. */
  readonly softLimitBytes?: number;
  /** Resident memory now. */
  readonly residentBytes?: () => number;
  /** Calls `listener` after each of V8's own collections (tests call it themselves). */
  readonly afterEachGc?: (listener: () => void) => Disposable;
  /** Milliseconds since some fixed point (tests move it). */
  readonly now?: () => number;
}

export interface IdleCollector extends Disposable {
  /** Collects now (after the start's warm-up, which leaves the most behind and is followed by no idle time when a window is busy). */
  collectNow(): void;
  /** Bulk work ended: collects on the next turn of the event loop if the heap grew (see the module comment). */
  afterWork(): void;
  /**
   * About to take `bytes` at once (a request body of declared length): collects first when they would
   * take the host past the soft limit and the heap grew, as the limit does after V8's own collections
   * (a 9.4 MB body on a host at 140 MB with a sync's garbage in it passed 150). A body sent in pieces
   * without a length (the extension's imports) is not told of: docs/performance.md, stop 47.
   */
  beforeAllocating(bytes: number): void;
}

/** Collects after work once the host is idle (see the module comment); undefined when this runtime has no way to. */
export function collectWhenIdle(options: IdleCollectionOptions = {}): IdleCollector | undefined {
  const collect = options.collect ?? fullCollection();
  if (collect === undefined) return undefined;
  const heapBytes = options.heapBytes ?? committedHeap;
  const busyShare = options.busyShare ?? eventLoopBusyShare();
  const growth = options.growthBytes ?? GROWTH_BYTES;
  const now = options.now ?? (() => performance.now());
  let afterLast = heapBytes();
  const collectNow = (): void => {
    collect();
    afterLast = heapBytes();
  };
  /** The heap's size now; a heap that shrank by itself sets the mark lower: growth counts from there. */
  const heapNow = (): number => {
    const heap = heapBytes();
    if (heap < afterLast) afterLast = heap;
    return heap;
  };
  /** Collects if the heap grew by `enough` since the last collection and a collection is `due` now. */
  const collectIfGrown = (due = true, enough = growth): void => {
    if (heapNow() - afterLast >= enough && due) collectNow();
  };
  // What bulk work leaves is mostly garbage, and the next bulk work would pile onto it: half as much growth is worth a collection then.
  const afterWorkGrowth = growth / 2;
  const timer = setInterval(() => collectIfGrown(busyShare() <= IDLE_SHARE), options.checkMs ?? CHECK_MS);
  timer.unref();
  let afterWork: NodeJS.Immediate | undefined;
  const limit = options.softLimitBytes === undefined ? undefined : overLimit(options.softLimitBytes);
  /** Collects when over the soft limit and the heap grew; backs off while collections give little back. */
  function overLimit(limitBytes: number): Disposable & { before(bytes: number): void } {
    const resident = options.residentBytes ?? (() => process.memoryUsage.rss());
    let gapMs = LIMIT_GAP_MS;
    // The gap counts from the last collection this limit made: one after bulk work (afterWork) must not
    // keep the limit from collecting the burst that follows it (an import's secrets scan grew the heap
    // by 12 MB in 1.5 s right after the import's own collection, to 151 MB).
    let lastAt = -Infinity;
    /** Collects if the host with `ahead` more bytes is over the limit, the heap grew and the gap has passed. */
    const check = (ahead: number): void => {
      if (now() - lastAt < gapMs || resident() + ahead < limitBytes) return;
      const before = heapNow();
      if (before - afterLast < LIMIT_GROWTH_BYTES) return;
      const started = now();
      collectNow();
      lastAt = now();
      const shortest = Math.max(LIMIT_GAP_MS, (now() - started) / LIMIT_TIME_SHARE);
      gapMs = before - afterLast < LIMIT_GROWTH_BYTES ? Math.min(Math.max(gapMs * 2, shortest), LIMIT_MAX_GAP_MS) : shortest;
    };
    const observed = (options.afterEachGc ?? observeGc)(() => check(0));
    return { dispose: () => observed.dispose(), before: check };
  }
  return {
    collectNow,
    beforeAllocating: (bytes) => limit?.before(bytes),
    afterWork: () => {
      afterWork ??= setImmediate(() => {
        afterWork = undefined;
        collectIfGrown(true, afterWorkGrowth);
      }).unref();
    },
    dispose: () => {
      clearInterval(timer);
      limit?.dispose();
      if (afterWork) clearImmediate(afterWork);
    },
  };
}

/** Calls `listener` once after each batch of V8's collections (Node reports them after the fact, off the collection itself). */
function observeGc(listener: () => void): Disposable {
  const observer = new PerformanceObserver(() => listener());
  observer.observe({ entryTypes: ['gc'] });
  return { dispose: () => observer.disconnect() };
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
