/**
 * `node --experimental-strip-types test/bench/historyCost.ts [updates] [growthUpdates] [runs]`:
 * the revisions figure of `npm run bench` alone (figures/history.ts), printed as JSON.
 */
import { measureHistory } from './figures/history.ts';

const [updates = 2_000, growthUpdates = 10_000, runs = 3] = process.argv.slice(2).map(Number);
console.log(JSON.stringify(await measureHistory({ assets: 1_000, updates, growthUpdates, runs }), null, 2));
