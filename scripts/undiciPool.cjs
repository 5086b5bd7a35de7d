// What the extension bundle takes of undici: the client (src/client/http.ts) uses only its Pool, and
// undici's index would add fetch, WebSocket, caches and mocks: 250 kB more for the editor to compile
// at every start. esbuild.mjs points the extension's `undici` here.
module.exports = { Pool: require('undici/lib/dispatcher/pool.js') };
