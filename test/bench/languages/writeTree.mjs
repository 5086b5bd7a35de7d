// Writes the files of COMMIT's tree into OUT, one by one: node writeTree.mjs GIT_DIR COMMIT OUT (fetchCorpus.sh).
// Not git archive or checkout: both stop at the first missing blob, and the snapshots CORPUS_GIT_MIRRORS points at
// lack every file of 4 MiB and more; those are skipped and counted. Submodules (160000) and symlinks (120000) are
// skipped too (no content here; a link could point out of the corpus), and so are paths .gitattributes marks
// export-ignore, as git archive (what made the corpus first) leaves them out. One git cat-file --batch streams all blobs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** The paths (files or folders) the commit's .gitattributes mark export-ignore, read by git from a scratch index. */
function exportIgnored(paths) {
  const scratch = mkdtempSync(join(tmpdir(), 'write-tree-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') };
    if (spawnSync('git', [`--git-dir=${gitDir}`, 'read-tree', commit], { env }).status !== 0) throw new Error(`git read-tree ${commit} failed`);
    const folders = new Set(paths.flatMap((path) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    const check = spawnSync('git', [`--git-dir=${gitDir}`, 'check-attr', '--cached', '-z', '--stdin', 'export-ignore'], {
      env,
      input: [...paths, ...folders].map((path) => `${path}\0`).join(''),
      maxBuffer: 1 << 30,
    });
    if (check.status !== 0) throw new Error(`git check-attr failed: ${check.stderr}`);
    const fields = check.stdout.toString('utf8').split('\0');
    const ignored = new Set();
    for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] === 'set') ignored.add(fields[i]);
    return ignored;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
const ignored = exportIgnored(files.map((f) => f.path));
const kept = files.filter((f) => !f.path.split('/').some((_, i, parts) => ignored.has(parts.slice(0, i + 1).join('/'))));
files.splice(0, files.length, ...kept);
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
console.log(`${next - missing} files written, ${missing} missing from the snapshot, ${ignored.size} paths export-ignore`);
