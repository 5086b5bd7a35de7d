/**
 * The parent's side of a request–reply channel to a child process or worker thread: each request
 * goes with an id, and the messages the other side sends back with that id reach whoever sent it,
 * in whatever order they arrive. When the other side dies, every call still waiting fails.
 *
 * A call waits for one reply (`call`) or listens to many messages until it closes itself (`open`:
 * an import hears of every batch it writes). The messages' shape is the channel's own (for child
 * processes that answer with `RpcReply`, see replies.ts).
 */

/** Who hears the messages of one open call. */
export interface CallListener<Message> {
  message(message: Message): void;
  /** The call cannot be answered any more (the other side died or is being closed). */
  fail(error: Error): void;
}

export class Calls<Message> {
  private nextId: number;
  private readonly open = new Map<number, CallListener<Message>>();

  /** `firstId`: the id of the first call (a child that announces itself with id 0 starts calls at 1). */
  constructor(firstId = 0) {
    this.nextId = firstId;
  }

  /** How many calls are waiting. */
  get size(): number {
    return this.open.size;
  }

  /** A new id for a message no one waits an answer to. */
  newId(): number {
    return this.nextId++;
  }

  /** Opens a call with a new id; its listener hears every message with that id until `close`. */
  listen(listener: CallListener<Message>): number {
    const id = this.newId();
    this.listenAt(id, listener);
    return id;
  }

  /** Listens at an id the protocol fixes (a child's ready announcement). */
  listenAt(id: number, listener: CallListener<Message>): void {
    this.open.set(id, listener);
  }

  close(id: number): void {
    this.open.delete(id);
  }

  /**
   * A call that waits for one message: `send` posts the request with its id, and `reply` settles
   * with the first message with that id (or fails if the other side dies first).
   */
  call(send: (id: number) => void): { readonly id: number; readonly reply: Promise<Message> } {
    const id = this.newId();
    return { id, reply: this.replyAt(id, send) };
  }

  /** `call` at an id the protocol fixes; `send` is left out when nothing is sent (the id-0 announcement). */
  replyAt(id: number, send?: (id: number) => void): Promise<Message> {
    return new Promise<Message>((resolve, reject) => {
      this.listenAt(id, {
        message: (message) => {
          this.close(id);
          resolve(message);
        },
        fail: reject,
      });
      send?.(id);
    });
  }

  /** Hands a message to the call with its id; false when none is open (a reply after its call failed). */
  deliver(id: number, message: Message): boolean {
    const listener = this.open.get(id);
    if (listener === undefined) return false;
    listener.message(message);
    return true;
  }

  /** Every open call fails with `error` and is closed (the other side died, or the channel is closing). */
  failAll(error: Error): void {
    const listeners = [...this.open.values()];
    this.open.clear();
    for (const listener of listeners) listener.fail(error);
  }
}
