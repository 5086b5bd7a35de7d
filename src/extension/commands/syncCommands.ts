/** Sync through git: Sync Now, and the Conflicts view's Compare, Keep Mine, Keep Theirs and Keep Both. */
import type { CommandMap, Services } from './services.ts';
import type { ConflictItem } from '../sync/conflictsView.ts';

export function syncCommands(s: Services): CommandMap {
  const { sync } = s;
  const conflicts = sync.conflicts;
  return {
    'satchel.sync.now': () => sync.sync('command'),
    'satchel.sync.showConflicts': () => conflicts.reveal(),
    'satchel.sync.compareConflict': (item?: ConflictItem | string) => conflicts.compare(conflicts.itemOf(item)),
    'satchel.sync.keepMine': (item?: ConflictItem | string) => conflicts.settle(conflicts.itemOf(item), 'mine'),
    'satchel.sync.keepTheirs': (item?: ConflictItem | string) => conflicts.settle(conflicts.itemOf(item), 'theirs'),
    'satchel.sync.keepBoth': (item?: ConflictItem | string) => conflicts.settle(conflicts.itemOf(item), 'both'),
  };
}
