/**
 * The guard against a sync that would empty a library: a sync that would delete more than a share
 * of one side's records stops before changing anything, until the user confirms. Its own module
 * because the VS Code side reads the default without loading the engine (which writes files).
 */
import { ConflictError } from '../errors.ts';

/** Share of the library (in %) a sync may delete without asking, unless set otherwise; and the least it may always delete. */
export const DEFAULT_MAX_DELETE_PERCENT = 50;
const ALWAYS_ALLOWED_DELETES = 4;

/** A sync would delete more than its share of the library: it stopped before changing anything. */
export class MassDeleteError extends ConflictError {
  readonly deletes: number;
  readonly library: number;
  constructor(deletes: number, library: number, where: string, what = 'snippets', percent = DEFAULT_MAX_DELETE_PERCENT) {
    super(
      `This sync would delete ${deletes} of ${library} ${what} ${where}, more than the ${percent}% a sync deletes without asking, so it stopped and changed nothing. ` +
        'If that is what you want, sync again confirming the deletes (satchel sync --confirm-deletes).',
    );
    this.deletes = deletes;
    this.library = library;
  }
}

/** Whether `percent` is a share a sync may be given (0-100). */
export function validDeletePercent(percent: number): boolean {
  return Number.isFinite(percent) && percent >= 0 && percent <= 100;
}

/** Whether `deletes` of `library` records is more than a sync may delete without asking. */
export function tooMany(deletes: number, library: number, percent: number): boolean {
  return deletes > ALWAYS_ALLOWED_DELETES && deletes > (percent / 100) * library;
}
