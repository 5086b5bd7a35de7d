/**
 * VS Code's activation figure for an extension (Running Extensions: "Activation: N ms") is its
 * `codeLoadingTime + activateCallTime`. The code-loading clock starts before an `await` (the
 * extension's translations), so when several extensions activate on the same event (Satchel's
 * `onStartupFinished`, with VS Code's own merge-conflict and debug-auto-launch) every one starts its
 * clock, then their bundles are required one after another: an extension's figure includes the code
 * of the ones required before it in that turn. The extension host's performance marks
 * (`code/extHost/willLoadExtensionCode/<id>` …) tell the parts apart.
 */
export interface LoadMark {
  readonly name: string;
  readonly startTime: number;
}

export interface ActivationSplit {
  /** Satchel's own `require` of its bundle, from VS Code's marks. */
  readonly ownLoadMs: number;
  /** The extensions whose code was required right before Satchel's in the same turn, with how long each took. */
  readonly loadedBefore: ReadonlyArray<{ readonly id: string; readonly ms: number }>;
}

/** How far apart two marks may be and still be one right after the other (VS Code's clock is in whole ms). */
const SAME_TURN_MS = 1;

export function activationSplit(marks: readonly LoadMark[], id: string): ActivationSplit | undefined {
  const at = (kind: string, extension: string): number | undefined => marks.find((mark) => mark.name === `code/extHost/${kind}/${extension}`)?.startTime;
  const willLoad = at('willLoadExtensionCode', id);
  const didLoad = at('didLoadExtensionCode', id);
  if (willLoad === undefined || didLoad === undefined) return undefined;
  const loadedBefore: Array<{ id: string; ms: number }> = [];
  let chainStart = willLoad;
  for (;;) {
    const previous = marks.find((mark) => mark.name.startsWith('code/extHost/didLoadExtensionCode/') && Math.abs(chainStart - mark.startTime) <= SAME_TURN_MS && !mark.name.endsWith(`/${id}`) && !loadedBefore.some((seen) => mark.name.endsWith(`/${seen.id}`)));
    if (!previous) break;
    const other = previous.name.slice('code/extHost/didLoadExtensionCode/'.length);
    const otherStart = at('willLoadExtensionCode', other);
    if (otherStart === undefined) break;
    loadedBefore.unshift({ id: other, ms: previous.startTime - otherStart });
    chainStart = otherStart;
  }
  return { ownLoadMs: didLoad - willLoad, loadedBefore };
}

/**
 * VS Code's figure in parts: the other extensions' code required first, Satchel's code (both from
 * the marks), its `activate()` (Satchel's own clock: the marks around activation also take in other
 * extensions' continuations) and what is left (VS Code's logging and awaits, the clocks' rounding).
 */
export function describeSplit(split: ActivationSplit | undefined, vscodeMs: number, activateMs: number | undefined): string {
  if (!split) return 'VS Code\'s marks not read';
  const others = split.loadedBefore.reduce((sum, other) => sum + other.ms, 0);
  const before = split.loadedBefore.length === 0 ? 'no other extension\'s code first' : `the code of ${split.loadedBefore.map((other) => `${other.id} ${other.ms} ms`).join(', ')} first`;
  const activate = activateMs === undefined ? undefined : Math.round(activateMs);
  const rest = Number.isNaN(vscodeMs) || activate === undefined ? '' : `, the rest ${vscodeMs - others - split.ownLoadMs - activate} ms`;
  return `${before}, Satchel's code ${split.ownLoadMs} ms, activate() ${activate ?? '?'} ms${rest}`;
}

/** VS Code's figure for one run and its parts: the run's marks, the editor's text, Satchel's own `activate()` time. */
export function describeActivation(loadMarks: readonly LoadMark[] | undefined, vscodeText: string | undefined, activateMs: unknown, id: string): string {
  return describeSplit(activationSplit(loadMarks ?? [], id), vscodeFigureMs(vscodeText), typeof activateMs === 'number' ? activateMs : undefined);
}

/** The milliseconds of the Running Extensions editor's text ("Activation: 35ms"), NaN if there are none. */
export function vscodeFigureMs(text: string | undefined): number {
  return Number(/(\d+)\s*ms/.exec(text ?? '')?.[1] ?? NaN);
}

/** Satchel's own share of the figure (its code and `activate()`, by its own clocks: src/extension/threadClock.ts) on a core and waiting for one. */
export function describeOwnShare(own: { wallMs: number; cpuMs?: number | undefined; waitedMs?: number | undefined } | undefined): string {
  if (!own) return 'Satchel\'s own clocks not read';
  const ms = (value: number | undefined): string => (value === undefined ? '?' : `${Math.round(value)} ms`);
  return `Satchel's share ${ms(own.wallMs)}: ${ms(own.cpuMs)} on a core, ${ms(own.waitedMs)} waiting for one`;
}

/**
 * The span of VS Code's figure for the extension, in the marks' time (epoch ms): from the first code
 * required in its turn to its own code's end plus its `activate()`.
 */
export function activationSpan(marks: readonly LoadMark[], id: string, activateMs: number | undefined): { fromMs: number; toMs: number } | undefined {
  const split = activationSplit(marks, id);
  const didLoad = marks.find((mark) => mark.name === `code/extHost/didLoadExtensionCode/${id}`)?.startTime;
  if (!split || didLoad === undefined) return undefined;
  const before = split.loadedBefore.reduce((sum, other) => sum + other.ms, 0);
  return { fromMs: didLoad - split.ownLoadMs - before, toMs: didLoad + (activateMs ?? 0) };
}
