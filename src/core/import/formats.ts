/**
 * The import formats and the progress share, as plain values with no imports: the wire declaration
 * and the clients read them without pulling in core's parsers.
 */
export const IMPORT_FORMATS = ['vscode', 'masscode', 'pieces', 'gist', 'raycast', 'snippets-extension', 'jetbrains', 'vault'] as const;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function isImportFormat(name: string): name is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(name);
}

/** The share (0–1) of the snippets an import found so far that are written, updated or skipped as duplicates. */
export function progressShare(progress: { readonly found: number; readonly imported: number; readonly updated: number; readonly duplicates: number }): number {
  return progress.found > 0 ? Math.min(1, (progress.imported + progress.updated + progress.duplicates) / progress.found) : 0;
}
