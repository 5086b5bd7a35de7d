/**
 * How many POST /mcp exchanges run at once, and how many may wait for their turn: a flood of MCP
 * calls cannot hold the event loop, and past the waiting line it is refused as busy (503 with
 * Retry-After, like the body budget), the way a client that sends too much is told to come back.
 *
 * Why a line and not only a refusal: agents send a few calls at once, and a burst of a few hundred
 * (a script, many agents starting) is better answered a little later than refused. Why turns: an
 * exchange is a chain of promise callbacks with its tool's work in the middle and few I/O waits,
 * so exchanges started together run one after another without the event loop looking at its
 * sockets, health waiting behind all of them. Each exchange starts on a turn of its own
 * (setImmediate), so between two looks at the sockets lies one exchange's start, not a burst's.
 */
import { HttpError } from '../errors.ts';

export interface SlotLimits {
  /** Exchanges running at once. */
  readonly running: number;
  /** Exchanges waiting for a slot; past that, refused. */
  readonly waiting: number;
  /** Longest wait for a slot, in ms; a call waiting longer is refused as busy. */
  readonly waitMs: number;
}

/**
 * Running: the tools' reads take a few ms, and a save waits on its durable write or a language
 * detection off the loop, so a few saves must not hold every slot. Waiting: a burst of 200 calls
 * (what issue 26 measured) is answered, not refused; each holds only its parsed body meanwhile.
 * Wait: far below the SDK client's 60 s request timeout.
 */
export const DEFAULT_SLOT_LIMITS: SlotLimits = { running: 16, waiting: 256, waitMs: 20_000 };

interface Waiter {
  readonly start: () => void;
  readonly refuse: (error: HttpError) => void;
  timer?: NodeJS.Timeout;
}

export class ExchangeSlots {
  readonly limits: SlotLimits;
  /** What waits here, as a refusal names it ("MCP requests", "searches"). */
  private readonly what: string;
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** A turn of the event loop is booked to start the next exchange. */
  private turnTaken = false;

  constructor(limits: SlotLimits = DEFAULT_SLOT_LIMITS, what = 'MCP requests') {
    this.limits = limits;
    this.what = what;
  }

  /**
   * Runs `exchange` on its turn. Throws a 503 `busy` HttpError when the line is full or the wait
   * is longer than `waitMs`; when `signal` aborts while waiting (the client left), the exchange
   * never runs and this resolves undefined.
   */
  async run<T>(exchange: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    const leave = await this.enter(signal);
    if (leave === undefined) return undefined;
    try {
      return await exchange();
    } finally {
      leave();
    }
  }

  /**
   * Waits for a slot as `run` does and holds it until the returned function is called (once or
   * more): for work that goes on after its handler returned, such as a reply streamed a page at a
   * time. Undefined when `signal` aborted first.
   */
  async enter(signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (!(await this.wait(signal))) return undefined;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.running--;
      this.startNext();
    };
  }

  /** Exchanges running and waiting now (for tests and figures). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Resolves true once this call holds a slot, false when the client left first. */
  private wait(signal: AbortSignal | undefined): Promise<boolean> {
    // Those about to take a free slot are in the line for a turn only: they do not count against it.
    const free = Math.max(0, this.limits.running - this.running);
    if (this.waiting.length >= this.limits.waiting + free) {
      throw busy(`More than ${this.limits.waiting} ${this.what} are waiting for their turn`);
    }
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      const leave = (): void => {
        if (this.remove(waiter)) resolve(false);
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', leave);
          resolve(true);
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', leave);
          reject(error);
        },
      };
      waiter.timer = setTimeout(() => {
        if (this.remove(waiter)) waiter.refuse(busy(`One of the ${this.what} waited ${this.limits.waitMs / 1000} s for its turn`));
      }, this.limits.waitMs);
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
      this.startNext();
    });
  }

  private remove(waiter: Waiter): boolean {
    const index = this.waiting.indexOf(waiter);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    clearTimeout(waiter.timer);
    return true;
  }

  /** Starts the first waiting exchange on the event loop's next turn, when a slot is free; one per turn. */
  private startNext(): void {
    if (this.turnTaken || this.waiting.length === 0 || this.running >= this.limits.running) return;
    this.turnTaken = true;
    setImmediate(() => {
      this.turnTaken = false;
      if (this.running < this.limits.running) {
        const next = this.waiting.shift();
        if (next) {
          clearTimeout(next.timer);
          this.running++;
          next.start();
        }
      }
      this.startNext();
    });
  }
}

function busy(why: string): HttpError {
  return new HttpError(503, 'busy', `${why}; retry shortly.`);
}
