/**
 * POST /satchel/backup (Satchel's own operation): a copy of the store in the data directory's
 * backups folder, taken in steps while the host keeps answering, its progress and then the backup
 * answered as NDJSON. The host chooses the file (see wire/backups.ts); a client that disconnects
 * cancels the copy and its partial file is removed.
 */
import { route, type RouteModule } from './deps.ts';
import { longOperationReply } from '../ndjson.ts';
import { backupOperations as op, type BackupReply } from '../../wire/backups.ts';

export const backupRoutes: RouteModule = (router, { core }) => {
  route(router, op.create, (ctx) => {
    void longOperationReply(
      ctx,
      core.context.logger,
      op.create,
      (signal, onProgress) => core.backups.takeOnRequest({ signal, onProgress }).then(({ path: _path, ...backup }): BackupReply => backup),
      (backup) => ({ backup }),
    );
  });
};
