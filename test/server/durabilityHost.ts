/**
 * Child process of durability.test.ts: serves a real Satchel on port 0 over the data directory
 * given as argv[2] and prints `{"port": N}` once listening. The test kills it with SIGKILL.
 */
import { Satchel } from '../../src/core/satchel.ts';
import { serve } from '../../src/server/server.ts';
import { silentLogger } from '../../src/core/context.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: durabilityHost.ts <data dir>');
const core = Satchel.open({ dataDir, logger: silentLogger });
const server = await serve(core, { logger: silentLogger, port: 0 });
process.stdout.write(JSON.stringify({ port: server.port }) + '\n');
