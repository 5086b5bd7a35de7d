// The extension bundle's `zod` (esbuild.mjs): zod itself is its own bundle (dist/zod.cjs), required the
// first time a schema is built. src/wire builds its schemas on first use and the extension's client
// builds none, so the editor neither compiles nor runs zod's 450 kB when it loads Satchel
// (docs/performance.md, activation). src/wire imports only `z`.
'use strict';
let zod;
Object.defineProperty(exports, 'z', {
  enumerable: true,
  get: () => (zod ??= require(require('node:path').join(__dirname, 'zod.cjs'))).z,
});
