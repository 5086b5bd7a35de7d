// Package aliases every bundle of Satchel's sources needs (esbuild.mjs, the VS Code suite's bundle).
// jsonc-parser's `main` is a UMD build whose factory requires its own files at run time, which a
// bundle does not hold ("Cannot find module './impl/format'"); its ESM build (`module`) bundles whole.
export const bundleAliases = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };
