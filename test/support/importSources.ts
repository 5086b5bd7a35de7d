/** Import sources and ImportProcess setups the import tests share (test/core/import). */
import assert from 'node:assert/strict';
import type { ImportSource } from '../../src/core/import/importSource.ts';
import { SnippetImporter } from '../../src/core/import/importer.ts';
import { ImportProcess, type ImportProcessDeps } from '../../src/core/import/importProcess.ts';
import { BulkWriter } from '../../src/core/assets/bulkWriter.ts';
import { BatchPreparer } from '../../src/core/import/batchPreparer.ts';
import type { Satchel } from '../../src/core/satchel.ts';

/** A VS Code snippet file of `count` TypeScript snippets, numbered from `from` (bodies of varied length). */
export function snippetFile(name: string, count: number, from = 0): ImportSource {
  const text = snippetFileText(count, from);
  return { name, text: () => text };
}

/** The same file as a request body carries it, its text as a JSON string's bytes; `taken` is noted in `events`. */
export function snippetFileBytes(name: string, count: number, from: number, events: string[]): ImportSource {
  return { name, jsonText: Buffer.from(JSON.stringify(snippetFileText(count, from))), taken: () => void events.push(`taken ${name}`) };
}

function snippetFileText(count: number, from: number): string {
  const entries = Array.from({ length: count }, (_, i) => [`Proc ${from + i}`, { scope: 'typescript', prefix: ['proc'], body: `export const proc${from + i} = ${from + i}; // ${'p'.repeat((from + i) % 300)}` }]);
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * An ImportProcess of `core`'s store whose in-process importer writes with the store's own BulkWriter
 * (classifying everything as TypeScript); `deps` add to or replace the rest. By default a batch is
 * never expected from elsewhere (`adopt` fails the test).
 */
export function importProcessFor(core: Satchel, deps: Partial<ImportProcessDeps> = {}): ImportProcess {
  return new ImportProcess({
    child: { path: core.context.database.path, schemaVersion: core.context.database.schemaVersion },
    inProcess: new SnippetImporter({ writer: new BulkWriter(core.context, core.assets.bulkTargets()), isSaved: () => false, classify: async () => 'ts', preparer: new BatchPreparer(false) }),
    session: () => core.assets.deferMerging(),
    classify: async () => 'ts',
    adopt: () => assert.fail('nothing is written elsewhere'),
    logger: { info() {}, warn() {}, error() {} },
    ...deps,
  });
}
