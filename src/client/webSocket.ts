/**
 * ws, loaded the first time a socket is opened rather than when the bundle that holds it loads: the
 * editor's extension host compiles and runs the whole bundle before `activate()` (VS Code counts it
 * as Satchel's activation), and ws with its zlib, TLS and HTTP server parts is among the largest
 * modules there, needed only once a data host is connected, a moment later. The extension's bundle
 * does not even hold it: the first socket requires dist/ws.cjs (docs/performance.md, activation).
 */
import type WebSocket from 'ws';

let loading: Promise<typeof WebSocket> | undefined;

export function loadWebSocket(): Promise<typeof WebSocket> {
  // The named export, not `default`: in the extension's bundle ws is its own bundle (dist/ws.cjs, required
  // on first read through getters: scripts/onDemandPackages.mjs), whose exports are ws's ESM names.
  loading ??= import('ws').then((module) => module.WebSocket);
  return loading;
}
