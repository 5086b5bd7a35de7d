/** The day bench's reading of a profiled start (test/bench/day/activationProfile.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeParts, figureParts, profileParts, type CpuProfile, type ProfiledStart } from '../bench/day/activationProfile.ts';

const SATCHEL = 'satchel-dev.satchel';
const mark = (kind: string, id: string, startTime: number) => ({ name: `code/extHost/${kind}/${id}`, startTime });

// One onStartupFinished turn, in epoch ms: merge-conflict's code 1000–1010, Satchel's 1010–1016, its activate() 1020–1024.
const marks = [
  mark('willLoadExtensionCode', 'vscode.merge-conflict', 1000),
  mark('didLoadExtensionCode', 'vscode.merge-conflict', 1010),
  mark('willLoadExtensionCode', SATCHEL, 1010),
  mark('didLoadExtensionCode', SATCHEL, 1016),
  mark('willActivateExtension', SATCHEL, 1020),
  mark('didActivateExtension', SATCHEL, 1024),
];
// The profile's clock: 1000 ms on the marks' clock is 5 s (5,000,000 µs) on the monotonic one.
const clock = { epochMs: 1000, monotonicUs: 5_000_000 };
const start: ProfiledStart = { extensionId: SATCHEL, loadMarks: marks, clock, vscodeActivation: 'Activation: 20ms' };

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
const MERGE_CONFLICT = 'file:///code-server/lib/vscode/extensions/merge-conflict/dist/mergeConflictMain.js';
const SATCHEL_MAIN = 'file:///home/u/.vscode/extensions/satchel-dev.satchel-0.1.0/dist/extensionMain.cjs';
const nodes = [
  { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 4, 5, 6, 7, 8] },
  { id: 2, callFrame: frame('(idle)', '') },
  { id: 3, callFrame: frame('wrapSafe', 'node:internal/modules/cjs/loader') },
  { id: 4, callFrame: frame('', MERGE_CONFLICT) },
  { id: 5, callFrame: frame('Script', 'node:vm') },
  { id: 6, callFrame: frame('activate', SATCHEL_MAIN) },
  { id: 7, callFrame: frame('registerCommand', 'file:///code-server/lib/vscode/out/vs/workbench/api/node/extensionHostProcess.js') },
  { id: 8, callFrame: frame('(garbage collector)', '') },
];

/** A profile of samples at the given ms on the marks' clock, each lasting until the next. */
function profileOf(samples: ReadonlyArray<readonly [number, number]>): CpuProfile {
  const times = samples.map(([ms]) => clock.monotonicUs + (ms - clock.epochMs) * 1000);
  return { nodes, startTime: times[0]!, samples: samples.map(([, node]) => node), timeDeltas: times.map((time, i) => (i === 0 ? 0 : time - times[i - 1]!)) };
}

test('the figure\'s parts are the code required in the turn, the wait, and activate()', () => {
  assert.deepEqual(figureParts(marks, SATCHEL), [
    { name: 'vscode.merge-conflict\'s code', fromMs: 1000, toMs: 1010, extension: 'vscode.merge-conflict' },
    { name: `${SATCHEL}'s code`, fromMs: 1010, toMs: 1016, extension: SATCHEL },
    { name: 'until activate()', fromMs: 1016, toMs: 1020 },
    { name: 'activate()', fromMs: 1020, toMs: 1024, extension: SATCHEL },
  ]);
  assert.deepEqual(figureParts(marks.filter((m) => !m.name.includes('Activate')), SATCHEL).map((part) => part.name), ['vscode.merge-conflict\'s code', `${SATCHEL}'s code`], 'a start whose activation was not marked has its code\'s parts');
  assert.deepEqual(figureParts(marks.filter((m) => !m.name.includes(`didLoadExtensionCode/${SATCHEL}`)), SATCHEL), [], 'nor any part without its code\'s marks');
  // By the extension's own clock activate() ran 2.5 ms: VS Code marked its end later, after other work.
  assert.deepEqual(figureParts(marks, SATCHEL, 2.5).at(-1), { name: 'activate()', fromMs: 1020, toMs: 1022.5, extension: SATCHEL });
});

test('each sample counts in the parts it overlaps, by the frame it was taken in', () => {
  const profile = profileOf([
    [998, 2], // idle before the turn: in no part
    [1000, 3], // merge-conflict compiled 1000–1004
    [1004, 4], // its own code 1004–1009
    [1009, 8], // a collection 1009–1011: 1 ms in each of the first two parts
    [1011, 5], // Satchel's code compiled from its cache 1011–1016
    [1016, 2], // idle until activate()
    [1020, 6], // activate()'s own code 1020–1021
    [1021, 7], // VS Code's API 1021–1024
    [1024, 2],
    [1030, 2],
  ]);
  const parts = profileParts(profile, start);
  const byName = Object.fromEntries(parts.map((part) => [part.name, part]));
  assert.equal(byName['vscode.merge-conflict\'s code']?.byKind.compiling, 4);
  assert.equal(byName['vscode.merge-conflict\'s code']?.byKind['its own code'], 5);
  assert.equal(byName['vscode.merge-conflict\'s code']?.byKind['garbage collector'], 1);
  assert.equal(byName[`${SATCHEL}'s code`]?.byKind['garbage collector'], 1);
  assert.equal(byName[`${SATCHEL}'s code`]?.byKind.compiling, 5, 'vm.Script, with or without a code cache, is compiling');
  assert.equal(byName[`${SATCHEL}'s code`]?.byKind['its own code'], 0, 'merge-conflict\'s frames are not Satchel\'s own code');
  assert.equal(byName['until activate()']?.byKind.idle, 4);
  assert.equal(byName['activate()']?.byKind['its own code'], 1);
  assert.equal(byName['activate()']?.byKind['VS Code\'s code'], 3);
  const table = describeParts(parts);
  assert.match(table.at(-1)!, /^\| all \| 24 \| 9\.0 \| 0\.0 \| 0\.0 \| 6\.0 \| 3\.0 \| 2\.0 \| 0\.0 \| 4\.0 \|$/);
  assert.deepEqual(describeParts([]), ['VS Code\'s marks for the extension were not all read']);
});
