/**
 * What the extension host did during VS Code's activation figure for an extension (Satchel, or the
 * day's control extension), read from a CPU profile
 * of its first line on (hostProfile.ts, `bench:day --only-start --profile-start=DIR`). The extension
 * host's marks (epoch ms) bound each part: every extension's code required in the extension's turn
 * (`willLoadExtensionCode` … `didLoadExtensionCode`), the wait before its `activate()`, and
 * `activate()` itself (from `willActivateExtension`, as long as the extension's own clock says). Each sample in a part is
 * counted by the frame it was taken in: V8 compiling a file, other native work, Node's module loader,
 * the extension's own code, VS Code's, the garbage collector; and the time the thread was idle. A
 * sample lasts until the next one, so a thread that waited for a core shows as a long sample of
 * whatever it was doing.
 *
 *   node --experimental-strip-types test/bench/day/activationProfile.ts DIR/start-1   # reads start-1.cpuprofile and start-1.json (control-1: the window without Satchel)
 */
import { readFileSync } from 'node:fs';
import type { ClockAnchor } from './dayTypes.ts';
import { activationSplit, type LoadMark } from './activationSplit.ts';

/** V8's CPU profile as the inspector writes it (`.cpuprofile`); longTasks.ts reads the same. */
export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** What the runner writes beside a profile. */
export interface ProfiledStart {
  /** The extension whose figure is taken apart: Satchel, or the control (an empty extension) in the window without it. */
  readonly extensionId: string;
  readonly loadMarks: readonly LoadMark[];
  readonly clock: ClockAnchor;
  readonly vscodeActivation?: string | undefined;
  /** How long the extension's `activate()` ran, by its own clock (0 for the control's empty one). */
  readonly activateMs?: number | undefined;
}

const KINDS = ['compiling', 'other native', 'Node\'s loader', 'its own code', 'VS Code\'s code', 'garbage collector', 'V8 (program)', 'idle'] as const;
type Kind = (typeof KINDS)[number];

interface Part {
  readonly name: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** The extension whose code counts as "its own code" in this part. */
  readonly extension?: string;
}

/**
 * The parts of the figure, in the marks' time: each extension's code in the turn, then the wait, then
 * `activate()`. `activate()` ends `activateMs` after VS Code's `willActivateExtension` mark (the
 * extension's own clock); without it, at `didActivateExtension`, which VS Code marks once the returned
 * value has settled, after whatever else ran meanwhile (18 ms of VS Code's code for an empty `activate()`
 * in one start).
 */
export function figureParts(marks: readonly LoadMark[], id: string, activateMs?: number): Part[] {
  const at = (name: string): number | undefined => marks.find((mark) => mark.name === `code/extHost/${name}`)?.startTime;
  const willLoad = at(`willLoadExtensionCode/${id}`);
  const willActivate = at(`willActivateExtension/${id}`);
  const didLoad = at(`didLoadExtensionCode/${id}`);
  const activated = willActivate !== undefined && activateMs !== undefined ? willActivate + activateMs : at(`didActivateExtension/${id}`);
  if (willLoad === undefined || didLoad === undefined) return [];
  const split = activationSplit(marks, id);
  if (!split) return [];
  // The extensions required one after another right before this one, in the same turn.
  const chain = split.loadedBefore.map((other): Part => {
    const toMs = at(`didLoadExtensionCode/${other.id}`) ?? Number.NaN;
    return { name: `${other.id}'s code`, fromMs: toMs - other.ms, toMs, extension: other.id };
  });
  const code: Part[] = [...chain, { name: `${id}'s code`, fromMs: willLoad, toMs: didLoad, extension: id }];
  // The development extension of the day's window (the control) is not always marked when it activates.
  if (willActivate === undefined || activated === undefined) return code;
  return [...code, { name: 'until activate()', fromMs: didLoad, toMs: willActivate }, { name: 'activate()', fromMs: willActivate, toMs: activated, extension: id }];
}

/** The folder an installed extension's files are under, as its URLs spell it (`…/publisher.name-1.2.3/…`, or a built-in's `…/extensions/name/…`). */
function belongsTo(url: string, extension: string): boolean {
  const [publisher, name] = extension.split('.');
  if (!name) return false;
  return url.includes(`/${publisher}.${name}-`) || (publisher === 'vscode' && url.includes(`/extensions/${name}/`));
}

/**
 * The JavaScript frames V8 compiles a whole file under (the profiler counts native work in the frame
 * that called it): Node's CommonJS loader compiling a file, `vm.Script` (Satchel's loader, with its
 * code cache), `vm.compileFunction`.
 */
const COMPILING = new Set(['wrapSafe', 'Script', 'compileFunction', 'compileFunctionForCJSLoader']);

function kindOf(frame: CallFrame, extension: string | undefined): Kind {
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(garbage collector)') return 'garbage collector';
  if (frame.functionName === '(program)') return 'V8 (program)';
  if (COMPILING.has(frame.functionName) && (frame.url === '' || frame.url.startsWith('node:'))) return 'compiling';
  if (frame.url === '') return 'other native';
  if (frame.url.startsWith('node:')) return 'Node\'s loader';
  if (extension && belongsTo(frame.url, extension)) return 'its own code';
  return 'VS Code\'s code';
}

export interface PartFigures {
  readonly name: string;
  readonly wallMs: number;
  readonly byKind: Record<Kind, number>;
}

/** Each part's samples by kind, in ms. */
export function profileParts(profile: CpuProfile, start: ProfiledStart): PartFigures[] {
  const parts = figureParts(start.loadMarks, start.extensionId, start.activateMs);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // A sample's time runs to the next sample; the marks' epoch ms become the profile's monotonic µs.
  const toUs = (epochMs: number): number => start.clock.monotonicUs + (epochMs - start.clock.epochMs) * 1000;
  const figures = parts.map((part) => ({ part, fromUs: toUs(part.fromMs), toUs: toUs(part.toMs), byKind: Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number> }));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const until = at + (profile.timeDeltas[i + 1] ?? 0);
    const frame = nodes.get(profile.samples[i]!)?.callFrame;
    if (!frame) continue;
    for (const figure of figures) {
      const overlap = Math.min(until, figure.toUs) - Math.max(at, figure.fromUs);
      if (overlap > 0) figure.byKind[kindOf(frame, figure.part.extension)] += overlap / 1000;
    }
  }
  return figures.map(({ part, byKind }) => ({ name: part.name, wallMs: Math.round((part.toMs - part.fromMs) * 10) / 10, byKind }));
}

/** A Markdown table of the parts. */
export function describeParts(figures: readonly PartFigures[]): string[] {
  if (!figures.length) return ['VS Code\'s marks for the extension were not all read'];
  const ms = (value: number): string => value.toFixed(1);
  const rows = figures.map((figure) => `| ${figure.name} | ${figure.wallMs} | ${KINDS.map((kind) => ms(figure.byKind[kind])).join(' | ')} |`);
  const total = (kind: Kind): number => figures.reduce((sum, figure) => sum + figure.byKind[kind], 0);
  const wall = Math.round(figures.reduce((sum, figure) => sum + figure.wallMs, 0) * 10) / 10;
  return [`| part | wall (marks) | ${KINDS.join(' | ')} |`, `|---|---:|${KINDS.map(() => '---:').join('|')}|`, ...rows, `| all | ${wall} | ${KINDS.map((kind) => ms(total(kind))).join(' | ')} |`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2];
  if (!base) throw new Error('usage: activationProfile.ts DIR/start-N (reads start-N.cpuprofile and start-N.json)');
  const profile = JSON.parse(readFileSync(`${base}.cpuprofile`, 'utf8')) as CpuProfile;
  const start = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as ProfiledStart;
  console.log(`VS Code's figure for ${start.extensionId}: ${start.vscodeActivation ?? 'not read'}`);
  console.log(describeParts(profileParts(profile, start)).join('\n'));
}
