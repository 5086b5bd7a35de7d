/** Every HTTP operation and WebSocket stream the host serves, from every area's table (what the route check walks). */
import type { Operation, Socket } from './operation.ts';
import { agentChangeOperations } from './agentChanges.ts';
import { assetOperations } from './assets.ts';
import { backupOperations } from './backups.ts';
import { applicationOperations, connectorOperations } from './connector.ts';
import { conversationOperations } from './conversations.ts';
import { hostOperations, hostSockets } from './host.ts';
import { importOperations } from './imports.ts';
import { historyOperations } from './history.ts';
import { modelOperations } from './models.ts';
import { qgptOperations, qgptSockets } from './qgpt.ts';
import { searchOperations } from './search.ts';
import { snippetOperations } from './snippets.ts';
import { syncOperations } from './sync.ts';
import { trashOperations } from './trash.ts';
import { secretOperations } from './secrets.ts';

const tables: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  agentChangeOperations,
  assetOperations,
  applicationOperations,
  backupOperations,
  connectorOperations,
  conversationOperations,
  historyOperations,
  hostOperations,
  importOperations,
  modelOperations,
  qgptOperations,
  searchOperations,
  snippetOperations,
  syncOperations,
  trashOperations,
  secretOperations,
};

/** Each operation with the name it is declared under (`assetOperations.create`). */
export const allOperations: ReadonlyArray<{ readonly name: string; readonly op: Operation }> = Object.entries(tables).flatMap(([table, ops]) =>
  Object.entries(ops).map(([name, op]) => ({ name: `${table}.${name}`, op })),
);

/** The WebSocket-only streams (the other streams share the path of their declared GET). */
export const allSockets: ReadonlyArray<{ readonly name: string; readonly socket: Socket }> = Object.entries({ hostSockets, qgptSockets }).flatMap(([table, sockets]) =>
  Object.entries(sockets).map(([name, socket]) => ({ name: `${table}.${name}`, socket })),
);
