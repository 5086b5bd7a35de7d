/** What the user is told of a sync's notices (conflict copies, edits kept over deletes). */
import type { SyncSummary } from '../../client/sync.ts';

export function noticeText(notice: SyncSummary['notices'][number]): { message: string; conflict: boolean } {
  switch (notice.notice) {
    case 'conflict':
      return { message: `"${notice.name}" was changed on another machine too: its version is kept, and yours is saved as a conflict copy.`, conflict: true };
    case 'local-edit-kept':
      return { message: `"${notice.name}" was deleted on another machine, but you changed it here: your change was kept.`, conflict: false };
    case 'remote-edit-kept':
      return { message: `"${notice.name}" was deleted here, but changed on another machine: it is back, with that change.`, conflict: false };
  }
}
