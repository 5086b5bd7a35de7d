/**
 * Run as a child process by scannerExit.test.ts: a scanner that is used (a text large enough for its
 * worker thread, then a stored read the worker cannot make) and never disposed. Prints what it got;
 * the process must then exit by itself.
 */
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import { PLANTED } from './plantedSecrets.ts';

const github = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!;
const scanner = new SecretScanner();
const code = `${'const value = compute(input, options);\n'.repeat(4000)}${github.text}\n`;
const findings = await scanner.scan({ code }, 'interactive');
const stored = await scanner.scanStored({ file: '/nonexistent/satchel.db', assetId: 'a', key: '00' });
process.stdout.write(`${JSON.stringify({ thread: scanner.threadStarted, found: findings.some((f) => code.slice(f.start, f.end) === github.value), stored: stored ?? null })}\n`);
