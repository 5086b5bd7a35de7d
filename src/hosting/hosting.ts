/**
 * What a window sees of hosting: its role and the changes of it, start and close. The extension
 * imports only these types; the composition root hands it a factory that builds the real thing.
 */
import type { Event } from '../core/events.ts';
import type { Logger } from '../core/context.ts';
import type { DataHostSettings } from './hostCommand.ts';

/**
 * `notice`: what last happened to the data host that the user should hear of (it stopped, how, and
 * that it was started again), said once with the role that follows it.
 */
export type Role =
  | { readonly kind: 'starting' }
  /** This window leads: it starts the data host (its own process) and starts it again when it stops. */
  | { readonly kind: 'host'; readonly url: string; readonly port: number; readonly pid?: number; readonly notice?: string }
  /** `cannotHost`: why this process could not start a host if that one went away. */
  | { readonly kind: 'client'; readonly url: string; readonly port: number; readonly pid?: number; readonly cannotHost?: Error; readonly notice?: string }
  /** No data host answers yet: one is starting, or another process holds the data directory. */
  | { readonly kind: 'waiting'; readonly notice?: string }
  | { readonly kind: 'failed'; readonly error: Error };

export interface Hosting {
  readonly role: Role;
  readonly onDidChangeRole: Event<Role>;
  /** Resolves once the first role is known; never throws (a failure is the `failed` role). */
  start(): Promise<Role>;
  /** Stops this window's part; the data host itself stays for the other windows (and leaves when idle). */
  close(): Promise<void>;
  /** Stops the data host when a window started it (so one can start with new settings); false when it is not one. */
  stopHost(): Promise<boolean>;
}

export interface HostingOptions extends DataHostSettings {
  readonly logger: Logger;
}

/** Builds this process's part in serving one data directory (one per start; a restart builds another). */
export type StartHosting = (options: HostingOptions) => Hosting;
