/** What the backup and restore commands share: the --keep-backups option and how counts read (sizes: core/byteSizes.ts). */
import { MAX_KEEP } from '../core/backups/backupFiles.ts';
import type { StoreSummary } from '../core/backups/storeFile.ts';
import { countText } from '../core/countText.ts';

/** --keep-backups N: copies kept per kind of backup, 0 to MAX_KEEP (0 turns automatic ones off). */
export function keepOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const keep = Number(text);
  if (!Number.isInteger(keep) || keep < 0 || keep > MAX_KEEP) throw new Error(`--keep-backups must be a whole number from 0 to ${MAX_KEEP}, not ${text}`);
  return keep;
}

/** "1,234 assets and 12 conversations". */
export function contents(summary: StoreSummary): string {
  return `${countText(summary.assets)} assets and ${countText(summary.conversations)} conversations`;
}
