// The extension bundle's `vscode` (esbuild.mjs): the API object re-exported once. Imported directly, the
// external `vscode` is wrapped for each of the ~50 modules that import it (esbuild's __toESM copies
// every export of the API onto a new object each time); through this module it is copied once.
export * from 'vscode';
