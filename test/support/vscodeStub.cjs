// The `vscode` module of a stand-in extension host (test/bench/extensionHost,
// test/packaging/activation.test.ts): every name @types/vscode exports is a stub that absorbs any use
// (constructible, callable, assignable), with a working EventEmitter and the settings given.
'use strict';
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

function stub() {
  const own = new Map();
  return new Proxy(class {}, {
    get: (target, key) => (own.has(key) ? own.get(key) : key === 'then' ? undefined : key in target && key !== 'name' && key !== 'length' ? target[key] : stub()),
    set: (_, key, value) => (own.set(key, value), true),
    apply: () => stub(),
    construct: () => stub(),
  });
}
class EventEmitter {
  listeners = new Set();
  event = (listener) => (this.listeners.add(listener), { dispose: () => this.listeners.delete(listener) });
  fire(e) {
    for (const listener of [...this.listeners]) listener(e);
  }
  dispose() {
    this.listeners.clear();
  }
}

/** From now on `require('vscode')` answers the stub; `settings` are what getConfiguration().get reads. */
function installVscode(settings) {
  const types = readFileSync(path.join(__dirname, '../../node_modules/@types/vscode/index.d.ts'), 'utf8');
  const names = [...new Set([...types.matchAll(/^\s*export (?:class|namespace|enum|const|function) (\w+)/gm)].map((m) => m[1]))];
  const absorbing = (known) => new Proxy(known, { get: (t, k) => (k in t ? t[k] : stub()) });
  const vscode = Object.assign(Object.fromEntries(names.map((n) => [n, stub()])), {
    EventEmitter,
    ExtensionKind: { UI: 1, Workspace: 2 },
    workspace: absorbing({ getConfiguration: () => ({ get: (k, d) => (k in settings ? settings[k] : d), inspect: () => undefined, update: async () => {} }), workspaceFolders: [] }),
  });
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
}

module.exports = { installVscode };
