/** The test module VS Code loads (`run()`): mocha with the suite bundled in, results to the console. */
import Mocha from 'mocha';

export async function run(): Promise<void> {
  // SATCHEL_TEST_GREP narrows a run to matching tests while working on them.
  const grep = process.env.SATCHEL_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  mocha.suite.emit('pre-require', globalThis, 'satchel.test.ts', mocha);
  await import('./satchel.test.ts');
  await import('./agents.test.ts');
  await import('./agentChanges.test.ts');
  await import('./memories.test.ts');
  await import('./import.test.ts');
  await import('./piecesImport.test.ts');
  await import('./snippets.test.ts');
  await import('./editing.test.ts');
  await import('./dragAndDrop.test.ts');
  await import('./history.test.ts');
  await import('./sync.test.ts');
  await import('./trash.test.ts');
  await import('./connectAgent.test.ts');
  await import('./secrets.test.ts');
  await import('./assetsPaging.test.ts');
  await import('./hostProcess.test.ts');
  // Last: it restarts the host on another data directory and back.
  await import('./remote.test.ts');
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} tests failed.`);
}
