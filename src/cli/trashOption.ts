/** The host's --trash-retention-days (or SATCHEL_TRASH_RETENTION_DAYS), checked before the host starts. */
import { MAX_RETENTION_DAYS } from '../core/trash/trashService.ts';

/** Days a deleted record stays in the trash, 0 to MAX_RETENTION_DAYS (0 keeps it until the trash is emptied); undefined when not given. */
export function retentionOption(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 0 || days > MAX_RETENTION_DAYS) throw new Error(`--trash-retention-days must be a whole number from 0 to ${MAX_RETENTION_DAYS}, not ${text}`);
  return days;
}
