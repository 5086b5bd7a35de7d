/**
 * How fast the vault's files are read back into records (the YAML parser's share of an import or a
 * sync's apply), at growing sizes, so that reading N records is seen to stay linear in N:
 *
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/vaultParse.ts 1000 10000 100000
 *
 * In memory (no disk, no store): each record's files made by assetFiles, then parsed by parseAsset.
 * Records look like a real library's: a name, two or three tags, a website on some, a description
 * on half, times, a 200–2,000 character body. Prints one line per size.
 */
import { assetFiles, parseAsset, type VaultAsset, type VaultFile } from '../../src/core/sync/vaultFormat.ts';

function recordAt(i: number): VaultAsset {
  return {
    id: `0198c7d2-4a1e-7b3c-9d2e-${String(i).padStart(12, '0')}`,
    name: `Snippet number ${i}: retry with backoff`,
    language: ['ts', 'py', 'sh', 'sql'][i % 4]!,
    tags: ['http', `tag${i % 97}`, ...(i % 3 === 0 ? ['retry'] : [])],
    websites: i % 5 === 0 ? [{ url: `https://example.com/${i}`, name: 'Example' }] : [],
    ...(i % 2 === 0 ? { description: `# About ${i}\nRetries a call with exponential backoff.\n` } : {}),
    created: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    updated: new Date(1_700_000_000_000 + i * 2000).toISOString(),
    favorited: i % 7 === 0,
    syntax: i % 11 === 0,
    prefixes: i % 11 === 0 ? [`p${i}`] : [],
    content: `export const value${i} = ${'"x".repeat(2);\n'.repeat(10 + (i % 90))}`,
  };
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const size of sizes.length > 0 ? sizes : [1_000, 10_000, 100_000]) {
  const folders: Array<{ id: string; files: readonly VaultFile[] }> = [];
  let bytes = 0;
  for (let i = 0; i < size; i++) {
    const record = recordAt(i);
    const files = assetFiles(record);
    bytes += files.reduce((sum, file) => sum + file.data.length, 0);
    folders.push({ id: record.id, files });
  }
  const started = performance.now();
  let names = 0;
  for (const folder of folders) names += parseAsset(folder.id, folder.files).name.length;
  const ms = performance.now() - started;
  const perRecordUs = (ms * 1000) / size;
  console.log(`${size} records (${(bytes / 2 ** 20).toFixed(1)} MiB): ${ms.toFixed(0)} ms, ${perRecordUs.toFixed(1)} µs a record, ${Math.round(size / (ms / 1000))} records/s (${names > 0 ? 'read' : 'none'})`);
}
