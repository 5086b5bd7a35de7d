/**
 * A sync in a process of its own that kills itself (SIGKILL: no cleanup, no finally) when the sync
 * reaches a phase: `node crashSync.ts <data dir> <phase>`. Exits 0 if the sync ended first.
 */
import { Satchel } from '../../../src/core/satchel.ts';

const [dataDir, phase] = process.argv.slice(2);
const core = Satchel.open({ dataDir: dataDir!, importWorker: false });
let applied = 0;
await core.sync.sync({
  onProgress: (progress) => {
    // 'applying' is killed after its first batch was written, half-way through the apply.
    if (progress.phase === phase && (phase !== 'applying' || ++applied >= 1)) process.kill(process.pid, 'SIGKILL');
  },
});
await core.close();
