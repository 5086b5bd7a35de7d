/** Messages between the event loop and the JSON worker thread (jsonWorker.ts, jsonWorkerThread.ts). */

export interface ParseLimits {
  readonly maxDepth: number;
  /** Strings, objects and arrays: what costs the receiving thread to rebuild (numbers are cheap). */
  readonly maxNodes: number;
}

export interface ParseRequest extends ParseLimits {
  readonly id: number;
  readonly bytes: Uint8Array;
  /** The declared name of the operation the router will run (`assetOperations.search`), when it reads a body. */
  readonly operation?: string;
}

/** Why the worker refused a body: its schema (invalid_input) or a record limit core checks first (too_large). */
export type RefusalCode = 'invalid_input' | 'too_large';

/** The worker's check of the parsed value against the operation's schema (and, for a seed, core's first checks). */
export type SchemaCheck =
  | { readonly operation: string; readonly ok: true }
  | { readonly operation: string; readonly ok: false; readonly code: RefusalCode; readonly message: string };

export type ParseOutcome =
  | { readonly ok: true; readonly value: unknown; readonly checked?: SchemaCheck }
  | { readonly ok: false; readonly code: 'invalid_encoding' | 'too_deep' | 'too_complex' | 'malformed_json'; readonly message: string };

export type ParseReply = ParseOutcome & { readonly id: number };
