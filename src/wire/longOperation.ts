/**
 * The NDJSON reply of long work (an import, a sync, a backup, emptying the trash): a progress line
 * per update, then one closing line, the result under the operation's own key or the error that
 * stopped it.
 */
export interface ErrorLine {
  readonly error: { readonly code: string; readonly message: string };
}

export type LongOperationLine<Progress, Key extends string, Result> =
  | { readonly progress: Progress }
  | { readonly [K in Key]: Result }
  | ErrorLine;
