/**
 * ws, loaded the first time a socket is opened rather than when the bundle that holds it loads: the
 * editor's extension host compiles and runs the whole bundle before `activate()` (VS Code counts it
 * as Satchel's activation), and ws with its zlib, TLS and HTTP server parts is among the largest
 * modules there, needed only once a data host is connected, a moment later.
 */
import type WebSocket from 'ws';

let loading: Promise<typeof WebSocket> | undefined;

export function loadWebSocket(): Promise<typeof WebSocket> {
  loading ??= import('ws').then((module) => module.default);
  return loading;
}
