/**
 * `satchel import <file-or-folder>…`: imports snippet files with a progress bar. When a host serves
 * the data directory the files go to it (POST /satchel/import), so its views and streams see the
 * new assets; otherwise the command takes the host lock itself, so no host can open the store
 * meanwhile (one starting now waits as standby), and writes through core. Ctrl-C cancels between
 * batches; what was written stays and the summary says so.
 */
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { Satchel } from '../core/satchel.ts';
import { defaultDataDir } from '../core/dataDir.ts';
import { readImportFile } from '../core/import/files.ts';
import { importInputs, type ImportInput } from '../core/import/importInputs.ts';
import { IMPORT_FORMATS, isImportFormat } from '../core/import/formats.ts';
import type { ImportOptions, ImportSummary } from '../core/import/importer.ts';
import type { ImportSource } from '../core/import/importSource.ts';
import { directOrThroughHost } from './hostAddress.ts';
import { authorOf } from '../core/history/authors.ts';
import { ProgressBar } from './progressBar.ts';
import { cancelOnInterrupt } from './interrupt.ts';
import { resolvePiecesOs } from '../core/import/piecesOs.ts';
import { listPiecesLibrary, piecesLabel, piecesOsSources } from '../core/import/piecesOsLibrary.ts';
import { countText } from '../core/countText.ts';

const USAGE = `Usage: satchel import [--data-dir DIR] [--format ${IMPORT_FORMATS.join('|')}] [--batch-size N] <file-or-folder>…
       satchel import [--data-dir DIR] --from-pieces [URL]
  Imports VS Code snippet files (*.code-snippets, <language>.json), a massCode db.json,
  a Pieces export (the JSON of GET /assets, or the folder Pieces' export tool writes),
  GitHub Gist JSON (GET /gists/{id}), Raycast's exported snippets, the VS Code Snippets
  extension's export (or data.json) and JetBrains live templates (a templates/*.xml file).
  Folders are searched for *.json, *.code-snippets and *.xml files. A Satchel vault
  (satchel export --vault) is imported with its ids and times; a massCode Markdown vault
  (its folder, or its code/ folder) as massCode's snippets.
  --from-pieces reads a running Pieces OS (URL, or the one found on ports 39300-39333 and
  1000) and imports its snippets and conversations; run it again to bring what changed.`;

/** Failures listed in the summary (all are counted). */
const LISTED_FAILURES = 20;

export async function runImportCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      format: { type: 'string' },
      'batch-size': { type: 'string' },
      'from-pieces': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values['from-pieces'] && !values.help) return runPiecesImport(values['data-dir'] ?? defaultDataDir(), positionals, values['batch-size']);
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const format = values.format;
  if (format !== undefined && !isImportFormat(format)) throw new Error(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
  const batchSize = batchSizeOption(values['batch-size']);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const files = (await Promise.all(positionals.map((path) => importInputs(path)))).flat();
  if (files.length === 0) throw new Error(`No snippet files (*.json, *.code-snippets) or vault folders in ${positionals.join(', ')}`);

  const interrupt = cancelOnInterrupt('Cancelling after the current batch');
  const bar = new ProgressBar();
  const options: ImportOptions = { signal: interrupt.signal, onProgress: (p) => bar.update(p), format, batchSize, files: files.length };
  try {
    const summary = await importInto(dataDir, files, options);
    bar.done();
    printSummary(summary);
    return summary.cancelled ? 130 : 0;
  } finally {
    bar.done();
    interrupt.dispose();
  }
}

function batchSizeOption(text: string | undefined): number | undefined {
  const batchSize = text !== undefined ? Number(text) : undefined;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) throw new Error('--batch-size must be a positive integer');
  return batchSize;
}

/**
 * `satchel import --from-pieces [URL]`: a running Pieces OS's library, read by the host when one
 * serves the data directory (POST /satchel/import/pieces), else by this process.
 */
async function runPiecesImport(dataDir: string, positionals: readonly string[], batchText: string | undefined): Promise<number> {
  if (positionals.length > 1) throw new Error('--from-pieces takes at most one URL (the Pieces OS address, e.g. http://localhost:39300)');
  const url = positionals[0];
  const batchSize = batchSizeOption(batchText);
  const interrupt = cancelOnInterrupt('Cancelling after the current batch; run the command again to go on');
  const bar = new ProgressBar();
  const options: ImportOptions = { signal: interrupt.signal, onProgress: (p) => bar.update(p), batchSize };
  try {
    const summary = await directOrThroughHost(dataDir, {
      direct: async () => {
        const pieces = await resolvePiecesOs(url, { signal: interrupt.signal });
        process.stderr.write(`Importing from ${piecesLabel(pieces)}.\n`);
        const core = Satchel.open({ dataDir });
        try {
          const listing = await listPiecesLibrary(pieces, interrupt.signal);
          const done = await core.imports.import(piecesOsSources(pieces, listing, interrupt.signal), { ...options, format: 'pieces', files: listing.parts });
          if (!done.cancelled) await core.imports.merged();
          return { ...done, source: piecesLabel(pieces) };
        } finally {
          await core.close();
        }
      },
      throughHost: (client) => client.imports.importPieces(url, options),
      directNote: 'importing into it directly',
      hostNote: 'Importing from Pieces',
      author: authorOf('cli', 'satchel import'),
    });
    bar.done();
    if (summary.source !== undefined) console.log(`From ${summary.source}:`);
    printSummary(summary);
    return summary.cancelled ? 130 : 0;
  } finally {
    bar.done();
    interrupt.dispose();
  }
}

/** The inputs as the importer reads them, each read when its turn comes. */
async function* sourcesOf(inputs: readonly ImportInput[]): AsyncGenerator<ImportSource> {
  for (const input of inputs) {
    if ('path' in input) yield { name: input.name, text: () => readFile(input.path, 'utf8') };
    else yield { name: input.name, parsed: await input.read() };
  }
}

function importInto(dataDir: string, files: readonly ImportInput[], options: ImportOptions): Promise<ImportSummary> {
  return directOrThroughHost(dataDir, {
    direct: async () => {
      const core = Satchel.open({ dataDir });
      try {
        const summary = await core.imports.import(sourcesOf(files), options);
        // A host opening the store later would merge it anyway; meanwhile its searches would be slower.
        if (!summary.cancelled) await core.imports.merged();
        return summary;
      } finally {
        await core.close();
      }
    },
    throughHost: (client) =>
      client.imports.importFiles(
        files.map((input) => ({
          name: input.name,
          read: async () => ('path' in input ? readImportFile(input.path, options.format) : { name: input.name, parsed: await input.read() }),
        })),
        options,
      ),
    directNote: 'importing into it directly',
    hostNote: 'Importing',
    author: authorOf('cli', 'satchel import'),
  });
}

function printSummary(summary: ImportSummary): void {
  const seconds = (summary.elapsedMs / 1000).toFixed(1);
  console.log(
    `${summary.cancelled ? 'Cancelled: ' : ''}imported ${countText(summary.imported)}, ` +
      (summary.updated > 0 ? `updated ${countText(summary.updated)} changed since the last import, ` : '') +
      `skipped ${countText(summary.duplicates)} duplicates, ${summary.failed} failed` +
      (summary.conversations ? `, ${countText(summary.conversations)} conversations ` : ' ') +
      `(${summary.source === undefined ? `${summary.filesDone}/${summary.files ?? summary.filesDone} files, ` : ''}${seconds} s).`,
  );
  for (const failure of summary.failures.slice(0, LISTED_FAILURES)) console.log(`  ✗ ${failure.source}: ${failure.reason}`);
  if (summary.failed > LISTED_FAILURES) console.log(`  … and ${summary.failed - LISTED_FAILURES} more.`);
}
