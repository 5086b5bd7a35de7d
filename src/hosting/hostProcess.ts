/**
 * Reaching a data host's process from a window: its presence socket, a polite stop, and whether
 * its process is still there (hostSupervisor.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type WebSocket from 'ws';
import { loadWebSocket } from '../client/webSocket.ts';
import { hostSockets } from '../wire/host.ts';
import { readPortFile, type PortFile } from './portFile.ts';

/** Ends a host with SIGTERM (it ends within 2 s, cli.ts) and waits until its port file is gone or names another. */
export async function terminate(dataDir: string, file: PortFile): Promise<boolean> {
  try {
    process.kill(file.pid, 'SIGTERM');
  } catch {
    return false;
  }
  for (let waited = 0; waited < 3_000; waited += 50) {
    await delay(50);
    const now = readPortFile(dataDir);
    if (!now || now.pid !== file.pid) return true;
  }
  return true;
}

/** A WebSocket to the host's health stream, open, or undefined when it does not open within 2 s. */
export async function openPresence(url: string): Promise<WebSocket | undefined> {
  const Socket = await loadWebSocket();
  return new Promise((resolve) => {
    const socket = new Socket(`${url.replace(/^http/, 'ws')}${hostSockets.health.path}`, { perMessageDeflate: false, handshakeTimeout: 2_000 });
    socket.once('open', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
    // Errors after opening end in 'close', which the owner hears.
    socket.on('error', () => {});
  });
}

/** Whether a process with this id exists, run by this user or another. */
export function processExists(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
