// Loads an on-demand bundle of Satchel's own modules (scripts/onDemandSources.mjs) into the extension
// host as Node would load a CommonJS file, except that its `require('satchel-shared:<path>')` answers
// with the extension bundle's own instance of that module, so the two bundles share one of each.
'use strict';

/**
 * @param {string} file the bundle
 * @param {string} prefix what its shared modules' names start with
 * @param {Record<string, unknown>} shared each shared module by source path
 * @param {string[]} functions what it exports, each a function (the extension's bundle calls them by name)
 */
exports.loadBundle = (file, prefix, shared, functions) => {
  const { readFileSync } = require('node:fs');
  const { createRequire } = require('node:module');
  const { compileFunction, constants } = require('node:vm');
  const path = require('node:path');
  const nodeRequire = createRequire(file);
  const bundleRequire = Object.assign((id) => {
    if (!id.startsWith(prefix)) return nodeRequire(id);
    const name = id.slice(prefix.length);
    if (!Object.hasOwn(shared, name)) throw new Error(`${path.basename(file)} requires ${name}, which the extension's bundle does not share`);
    return shared[name];
  }, nodeRequire);
  const run = compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], {
    filename: file,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  run.call(module.exports, module.exports, bundleRequire, module, file, path.dirname(file));
  const notFunctions = functions.filter((name) => typeof module.exports[name] !== 'function');
  if (notFunctions.length > 0) throw new Error(`${path.basename(file)} exports ${notFunctions.join(', ')} as something else than a function`);
  return module.exports;
};
