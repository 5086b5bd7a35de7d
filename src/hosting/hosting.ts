/**
 * What a window sees of hosting: its role and the changes of it, start and close. The extension
 * imports only these types; the composition root hands it a factory that builds the real thing.
 */
import type { Event } from '../core/events.ts';
import type { HostOptions } from './host.ts';

export type Role =
  | { readonly kind: 'starting' }
  | { readonly kind: 'host'; readonly url: string; readonly port: number }
  /** `cannotHost`: why this process could not take over if that server went away. */
  | { readonly kind: 'client'; readonly url: string; readonly port: number; readonly cannotHost?: Error }
  /** Another process holds the lock but its server does not answer yet. */
  | { readonly kind: 'waiting' }
  | { readonly kind: 'failed'; readonly error: Error };

export interface Hosting {
  readonly role: Role;
  readonly onDidChangeRole: Event<Role>;
  /** Resolves once the first role is known; never throws (a failure is the `failed` role). */
  start(): Promise<Role>;
  /** Stops hosting (the lock goes to a successor) or stops waiting. */
  close(): Promise<void>;
}

export type HostingOptions = HostOptions;

/** Builds this process's part in serving one data directory (one per start; a restart builds another). */
export type StartHosting = (options: HostingOptions) => Hosting;
