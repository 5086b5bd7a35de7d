/**
 * The headless host's tuning options, as a VS Code window passes its settings to the host it starts
 * (hosting/hostCommand.ts writes them): connector thresholds, model unloading and mirror, idle exit,
 * the soft memory limit.
 */

/** The resident memory above which the host collects its garbage as it grows (idleCollection.ts): the data host's budget at 100k snippets is 150 MB. */
const SOFT_MEMORY_LIMIT_MB = 140;

export interface TuningFlags {
  readonly 'connector-min-length'?: string | undefined;
  readonly 'connector-reuse-threshold'?: string | undefined;
  readonly 'model-idle-unload-minutes'?: string | undefined;
  readonly 'model-catalog-url'?: string | undefined;
  readonly 'idle-minutes'?: string | undefined;
  readonly 'soft-memory-limit'?: string | undefined;
}

export interface HostTuning {
  readonly connector?: { minLength?: number; reuseThreshold?: number };
  readonly models?: { idleUnloadMs?: number; catalogBaseUrl?: string };
  /** Exit after this long with no connection open; undefined: never. */
  readonly idleMs?: number;
  /** Resident memory above which the host collects as its heap grows; undefined: no limit (`--soft-memory-limit 0`). */
  readonly softMemoryLimitBytes?: number;
}

/** Throws with the flag's name and the value when one is not what it must be. */
export function hostTuning(flags: TuningFlags): HostTuning {
  const minLength = number(flags, 'connector-min-length', (n) => Number.isInteger(n) && n >= 1, 'a whole number from 1');
  const reuseThreshold = number(flags, 'connector-reuse-threshold', (n) => n >= 0.1 && n <= 1, 'a number from 0.1 to 1');
  const unloadMinutes = number(flags, 'model-idle-unload-minutes', (n) => n >= 0, 'a number of minutes from 0');
  const idleMinutes = number(flags, 'idle-minutes', (n) => n >= 0, 'a number of minutes from 0');
  const limitMb = number(flags, 'soft-memory-limit', (n) => n >= 0, 'a number of megabytes from 0 (0: no limit)') ?? SOFT_MEMORY_LIMIT_MB;
  const catalog = flags['model-catalog-url']?.trim();
  if (catalog !== undefined && catalog !== '' && !/^https?:\/\//.test(catalog)) throw new Error(`--model-catalog-url must be an http(s) URL, not ${catalog}`);
  const connector = { ...(minLength !== undefined ? { minLength } : {}), ...(reuseThreshold !== undefined ? { reuseThreshold } : {}) };
  const models = { ...(unloadMinutes !== undefined ? { idleUnloadMs: unloadMinutes * 60_000 } : {}), ...(catalog ? { catalogBaseUrl: catalog } : {}) };
  return {
    ...(Object.keys(connector).length > 0 ? { connector } : {}),
    ...(Object.keys(models).length > 0 ? { models } : {}),
    ...(idleMinutes !== undefined ? { idleMs: idleMinutes * 60_000 } : {}),
    ...(limitMb > 0 ? { softMemoryLimitBytes: limitMb * 2 ** 20 } : {}),
  };
}

function number(flags: TuningFlags, name: keyof TuningFlags, valid: (n: number) => boolean, what: string): number | undefined {
  const text = flags[name];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`--${name} must be ${what}, not ${text}`);
  return value;
}
