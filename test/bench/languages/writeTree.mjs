// Writes the files of COMMIT's tree into OUT, one by one: node writeTree.mjs GIT_DIR COMMIT OUT (fetchCorpus.sh).
// Not git archive or checkout: both stop at the first missing blob, and the snapshots CORPUS_GIT_MIRRORS points at
// lack every file of 4 MiB and more; those are skipped and counted. Submodules (160000) and symlinks (120000) are
// skipped too (no content here; a link could point out of the corpus). One git cat-file --batch streams all blobs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [gitDir, commit, out] = process.argv.slice(2);
if (!out) throw new Error('usage: node writeTree.mjs GIT_DIR COMMIT OUT');
const tree = spawnSync('git', [`--git-dir=${gitDir}`, 'ls-tree', '-r', '-z', commit], { maxBuffer: 1 << 30 });
if (tree.status !== 0) {
  console.error(`${commit} is not in ${gitDir}: ${tree.stderr}`.trim());
  process.exit(1);
}
const files = [];
for (const entry of tree.stdout.toString('utf8').split('\0')) {
  const tab = entry.indexOf('\t');
  const [mode, , sha] = entry.slice(0, tab).split(' ');
  const path = entry.slice(tab + 1);
  // git refuses such paths itself; checked again as they become file names here
  if ((mode === '100644' || mode === '100755') && !path.startsWith('/') && !/(^|\/)(\.\.?|\.git)(\/|$)/.test(path))
    files.push({ mode, sha, path });
}
mkdirSync(out, { recursive: true });
const cat = spawn('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
cat.stdin.end(files.map((f) => `${f.sha}\n`).join(''));
let buf = Buffer.alloc(0);
let next = 0;
let missing = 0;
for await (const chunk of cat.stdout) {
  buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
  for (let nl; (nl = buf.indexOf(10)) >= 0; ) {
    const head = buf.subarray(0, nl).toString();
    if (head.endsWith(' missing')) {
      missing++, next++, (buf = buf.subarray(nl + 1));
      continue;
    }
    const size = Number(head.split(' ')[2]);
    if (buf.length < nl + size + 2) break; // the rest of this blob is still to come
    const { mode, path } = files[next++];
    const dest = join(out, path);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, buf.subarray(nl + 1, nl + 1 + size), { mode: mode === '100755' ? 0o755 : 0o644 });
    buf = buf.subarray(nl + size + 2);
  }
}
if (next !== files.length) throw new Error(`${out}: git cat-file stopped after ${next} of ${files.length} files`);
console.log(`${next - missing} files written, ${missing} missing from the snapshot`);
