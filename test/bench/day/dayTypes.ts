/** What the day's runner hands the driver in the extension host, and what the driver answers. */
import type { PhaseFigures, SettledMemory } from './sampler.ts';
import type { LoadMark } from './activationSplit.ts';
import type { ActivationFigures } from '../../../src/extension/satchelExtension.ts';

/** Satchel's id, as VS Code names it (its marks, the extensions API). */
export const EXTENSION_ID = 'satchel-dev.satchel';

export interface DayConfig {
  readonly withSatchel: boolean;
  readonly size: number;
  readonly dataDir: string;
  readonly workspace: string;
  readonly importFolder: string;
  /** A bare git repository, the first sync's remote. */
  readonly remote: string;
  readonly backfillSeconds: number;
  /** In the run without Satchel: how long each of Satchel's own phases took with it. */
  readonly durations?: Readonly<Record<string, number>>;
  /** Where each phase's CPU profile is written (`--profile=DIR`); none when unset. */
  readonly profileDir?: string;
  /** Only the start, then VS Code's activation figure (`--only-start`). */
  readonly startOnly?: boolean;
}

export interface DayResult {
  readonly withSatchel: boolean;
  readonly size: number;
  /** How long the extension host had run when the driver started (Satchel activates at onStartupFinished, maybe before). */
  readonly extHostUptimeAtDriverS: number;
  readonly rssAtDriverStartMb: number;
  activation?: ActivationFigures | undefined;
  readonly phases: Record<string, PhaseFigures>;
  whole: { p50: number; p99: number; max: number };
  /** The extension host's memory after full collections at the day's end. */
  settled?: SettledMemory | undefined;
  dataHost?: number;
  /**
   * The extension host's own marks around loading each extension's code and activating it (VS Code's `code/extHost/…`
   * performance marks, in epoch milliseconds), for taking VS Code's activation figure apart.
   */
  loadMarks?: readonly LoadMark[];
  /** One instant on both of the extension host's clocks: the marks' (epoch ms) and V8's profiles' (monotonic µs). */
  clock?: ClockAnchor;
}

export interface ClockAnchor {
  readonly epochMs: number;
  readonly monotonicUs: number;
}
