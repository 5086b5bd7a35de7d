// What the extension bundle takes of undici: the client (src/client/http.ts) uses only a Pool and its
// request(), and undici's index would add fetch, WebSocket, caches and mocks: 250 kB more for the
// editor to compile at every start. esbuild.mjs points the extension's `undici` here. As undici's
// index does, the request API goes onto the dispatchers' prototype (this bundle's own copy).
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
Dispatcher.prototype.request = require('undici/lib/api/api-request.js');
module.exports = { Pool: require('undici/lib/dispatcher/pool.js') };
