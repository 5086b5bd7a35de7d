/** The day bench's reading of VS Code's activation figure (test/bench/day/activationSplit.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activationSpan, activationSplit, describeActivation, describeOwnShare, describeSplit, vscodeFigureMs } from '../bench/day/activationSplit.ts';

const mark = (kind: string, id: string, startTime: number) => ({ name: `code/extHost/${kind}/${id}`, startTime });

// Marks as a code-server 4.139.1 extension host wrote them for one onStartupFinished turn (times shortened).
const turn = [
  mark('willLoadExtensionCode', 'vscode.git', 242),
  mark('didLoadExtensionCode', 'vscode.git', 296),
  mark('willLoadExtensionCode', 'vscode.debug-auto-launch', 364),
  mark('didLoadExtensionCode', 'vscode.debug-auto-launch', 366),
  mark('willLoadExtensionCode', 'vscode.merge-conflict', 366),
  mark('didLoadExtensionCode', 'vscode.merge-conflict', 382),
  mark('willLoadExtensionCode', 'satchel-dev.satchel', 382),
  mark('didLoadExtensionCode', 'satchel-dev.satchel', 397),
];

test('takes apart the code required before the extension in its turn, and stops at a gap', () => {
  const split = activationSplit(turn, 'satchel-dev.satchel');
  assert.deepEqual(split, {
    ownLoadMs: 15,
    loadedBefore: [
      { id: 'vscode.debug-auto-launch', ms: 2 },
      { id: 'vscode.merge-conflict', ms: 16 },
    ],
  });
  // VS Code showed "Activation: 43ms" for this turn; Satchel's own clock had activate() at 8.6 ms.
  assert.equal(describeSplit(split, vscodeFigureMs('Activation: 43ms'), 8.6), "the code of vscode.debug-auto-launch 2 ms, vscode.merge-conflict 16 ms first, Satchel's code 15 ms, activate() 9 ms, the rest 1 ms");
});

test('an extension loaded first in its turn has nothing before it; missing marks say so', () => {
  assert.deepEqual(activationSplit(turn, 'vscode.git')?.loadedBefore, []);
  assert.equal(activationSplit(turn.slice(0, -1), 'satchel-dev.satchel'), undefined);
  assert.equal(describeSplit(undefined, 43, 8.6), "VS Code's marks not read");
  assert.equal(describeSplit(activationSplit(turn, 'vscode.git'), NaN, undefined), "no other extension's code first, Satchel's code 54 ms, activate() ? ms");
  assert.ok(Number.isNaN(vscodeFigureMs('Activating...')));
  // A run's figures as the day records them: an activate() time that is not a number is unknown.
  assert.equal(describeActivation(turn, 'Activation: 43ms', 'n/a', 'satchel-dev.satchel'), "the code of vscode.debug-auto-launch 2 ms, vscode.merge-conflict 16 ms first, Satchel's code 15 ms, activate() ? ms");
  assert.equal(describeActivation(undefined, undefined, 3, 'satchel-dev.satchel'), "VS Code's marks not read");
});

test("Satchel's own share reads as time on a core and time waiting for one; a clock not read says so", () => {
  assert.equal(describeOwnShare({ wallMs: 41.6, cpuMs: 17.2, waitedMs: 22.9 }), "Satchel's share 42 ms: 17 ms on a core, 23 ms waiting for one");
  assert.equal(describeOwnShare({ wallMs: 20, cpuMs: 15 }), "Satchel's share 20 ms: 15 ms on a core, ? waiting for one");
  assert.equal(describeOwnShare(undefined), "Satchel's own clocks not read");
});

test("the figure's span runs from the first code required in the turn to the extension's code plus its activate()", () => {
  assert.deepEqual(activationSpan(turn, 'satchel-dev.satchel', 8.6), { fromMs: 364, toMs: 405.6 });
  assert.deepEqual(activationSpan(turn, 'vscode.git', undefined), { fromMs: 242, toMs: 296 });
  assert.equal(activationSpan(turn, 'satchel-dev.missing', 1), undefined);
});
