/**
 * The event loop's longest hold while one piece of work of issue 31 item 4 runs in process, each on
 * its own fresh store: run with
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/loopHolds.ts [what…]
 * (what: tags, languages, trash, blob, revision; all by default). Each line: the work's total ms and
 * the longest time between two turns of the loop (what a health probe would wait at worst).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { withCore, tempDir } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { Git, MAX_VAULT_FILE_BYTES, ObjectReader } from '../../src/core/sync/git.ts';
import { LanguageTable } from '../../src/core/snippets/languageTable.ts';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jsonValueReply } from '../../src/server/jsonEncode.ts';

/** Runs `work`, a setImmediate ticker measuring the longest gap between turns meanwhile. */
async function held(what: string, work: () => Promise<unknown> | unknown, extra: Record<string, unknown> = {}): Promise<void> {
  let last = performance.now();
  let longest = 0;
  let ticking = true;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  const started = performance.now();
  last = started;
  setImmediate(tick);
  await work();
  const total = performance.now() - started;
  tick();
  ticking = false;
  console.log(JSON.stringify({ what, total_ms: Math.round(total), longest_hold_ms: Math.round(longest), ...extra }));
}

/** A generator's pages read with a turn between them, as a streamed reply reads them. */
async function paged(pages: Iterable<unknown>): Promise<number> {
  let count = 0;
  for (const page of pages) {
    JSON.stringify(page);
    count++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return count;
}

const FIGURES: Record<string, () => Promise<void>> = {
  /** GET /tags' pages: 128 tags, each on 10k snippets (links grown in SQL). */
  tags: () =>
    withCore(async (core) => {
      const db = core.context.database;
      for (let i = 0; i < 128; i++) core.assets.writes.createTag({ text: `tag ${i}` }, TEST_WRITE);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
         INSERT INTO links (a_kind, a_id, b_kind, b_id, created) SELECT 'tag', r.id, 'asset', printf('a-%012d', n.i), r.created FROM records r, n WHERE r.kind = 'tag'`,
      ).run();
      await held('tags 128 x 10k links: GET /tags pages', () => paged(core.assets.labels.tagPages()));
    }),
  /** The completion language table read after a large import: 300k snippets grown in SQL. */
  languages: () =>
    withCore(async (core) => {
      const template = await core.assets.writes.create(codeSeed('const x = 1;', 'x'), TEST_WRITE);
      core.context.database
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
           INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords)
           SELECT printf('g-%012d', i), '2020-01-01T00:00:00.000Z', '', 0, 0, 'g', 'ts', a.data, '' FROM n, assets a WHERE a.id = ?`,
        )
        .run(template.id);
      const languages = new LanguageTable(core.context);
      await held('completion language table, 300k snippets', () => languages.warm());
      languages.dispose();
    }),
  /** Trash listings: 200 of GET /satchel/trash over 20k entries (rows copied in SQL). */
  trash: () =>
    withCore(async (core) => {
      for (let i = 0; i < 20; i++) {
        const asset = await core.assets.writes.create(codeSeed(`export const t${i} = ${i};\n`.repeat(40), `t${i}`), TEST_WRITE);
        core.assets.writes.delete(asset.id, TEST_WRITE);
      }
      core.context.database
        .prepare(
          `INSERT INTO trash (id, kind, name, preview, language, messages, deleted, author_kind, author_name, size, facts, data)
           SELECT t.id || '.' || n.i, kind, name, preview, language, messages, deleted - n.i, author_kind, author_name, size, facts, data
           FROM trash t, (WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 999) SELECT i FROM k) n`,
        )
        .run();
      await held('200 trash listings, 20k entries', async () => {
        for (let i = 0; i < 200; i++) {
          core.trash.list();
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
    }),
  /** The git reader taking in one 63 MB blob (a sync fetching it). */
  blob: async () => {
    const root = tempDir('satchel-bench-blob-');
    try {
      const gitDir = join(root, 'objects.git');
      execFileSync('git', ['init', '--bare', '--quiet', gitDir]);
      const oid = execFileSync('git', ['--git-dir', gitDir, 'hash-object', '-w', '--stdin'], { input: Buffer.alloc(63 * 1000 * 1000, 'a'), maxBuffer: 1 << 20 }).toString().trim();
      const reader = new ObjectReader(new Git(gitDir), MAX_VAULT_FILE_BYTES);
      await held('git reader as sync reads a vault, one 63 MB blob', () => reader.read(oid));
      reader.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
  /** A 4 Mi-character revision read and encoded as its reply is (jsonValueReply, as json() now sends one). */
  revision: () =>
    withCore(async (core) => {
      const line = 'export const value = computeSomething(alpha, beta, gamma); // note\n';
      const text = line.repeat(Math.floor((4 * 1024 * 1024) / line.length));
      const asset = await core.assets.writes.create(codeSeed(text, 'large'), TEST_WRITE);
      core.assets.writes.edit(asset.id, { content: { text: `${text}x\n` } }, TEST_WRITE);
      const first = core.history.list(asset.id).revisions.at(-1)!.id;
      // The compactor deflates kept texts off the loop some time after the write: done here at once.
      await core.history.compactor.compactAll();
      await held('20 reads of a 4 MiB revision, one at a time, inflated off the loop, encoded while sent', async () => {
        for (let i = 0; i < 20; i++) {
          const revision = await core.history.read(asset.id, first);
          await pipeline(Readable.from(jsonValueReply(revision)), new Writable({ write: (_chunk, _encoding, done) => done() }));
        }
      });
      await held('20 reads of a 4 MiB snippet, JSON.stringify each', async () => {
        for (let i = 0; i < 20; i++) {
          JSON.stringify(core.assets.get(asset.id, { transferables: true }));
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
    }),
};

const wanted = process.argv.slice(2);
for (const [name, figure] of Object.entries(FIGURES)) if (wanted.length === 0 || wanted.includes(name)) await figure();
