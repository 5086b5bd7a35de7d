/**
 * One download in a process of its own, timed from the request to the file being complete on
 * disk. `plain`: undici's stream() into a file (the baseline). `satchel`: the models area's
 * downloader (streaming sha256 checked against the expected digest, fsync, atomic rename).
 * Prints `{"ms":…,"bytes":…}`.
 */
import { createWriteStream, statSync } from 'node:fs';
import { stream } from 'undici';
import { downloadFile } from '../../src/core/models/downloader.ts';

const [mode, url, dest, sha256] = process.argv.slice(2);
if (!mode || !url || !dest) throw new Error('usage: downloadChild.ts plain|satchel URL DEST [SHA256]');

const started = performance.now();
if (mode === 'plain') {
  await stream(url, { method: 'GET' }, () => createWriteStream(dest));
} else {
  await downloadFile({ source: url, dest, ...(sha256 ? { sha256 } : {}), signal: new AbortController().signal });
}
console.log(JSON.stringify({ ms: performance.now() - started, bytes: statSync(dest).size }));
