/** Memories from the client side (Satchel's own operation, src/wire/memories.ts). */
import { memoryOperations as op } from '../wire/memories.ts';
import type { MemoryList } from '../wire/memories.ts';
import type { HttpTransport } from './http.ts';

export type { MemoryList, MemoryView } from '../wire/memories.ts';

export class MemoriesClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** The newest memories, each with its cited files checked now (`stale`, `staleNote`). */
  list(signal?: AbortSignal): Promise<MemoryList> {
    return this.http.call(op.list, signal ? { signal } : {});
  }
}
