/**
 * POST /satchel/backup (Satchel's own operation): a copy of the store in the data directory's
 * backups folder, taken in steps while the host keeps answering, its progress and then the backup
 * answered as NDJSON. The host chooses the file (see wire/backups.ts); a client that disconnects
 * cancels the copy and its partial file is removed.
 */
import { route, type RouteModule } from './deps.ts';
import { errorLine, ndjsonReply } from '../ndjson.ts';
import { backupOperations as op, type BackupLine } from '../../wire/backups.ts';

export const backupRoutes: RouteModule = (router, { core }) => {
  route(router, op.create, (ctx) => {
    const reply = ndjsonReply<BackupLine>(ctx);
    void core.backups
      .takeOnRequest({ signal: reply.signal, onProgress: (progress) => reply.send({ progress }) })
      .then(
        ({ path: _path, ...backup }) => reply.send({ backup }),
        (error: unknown) => reply.send(errorLine(error, core.context.logger, op.create.path)),
      )
      .finally(() => reply.end());
  });
};
