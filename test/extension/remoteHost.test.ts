/**
 * When Satchel's library is on a remote machine (the extension host runs on the workspace's side of
 * a remote window) and empty there, the window says so; a local window, or the UI side of a remote
 * one (where extensionKind ["ui", "workspace"] puts it), never does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remoteLogLine, remoteNotice, runsRemotely, type HostFacts, type LibraryFacts } from '../../src/extension/remoteHost.ts';

const container: HostFacts = { remoteName: 'dev-container', onWorkspaceSide: true, inBrowser: false, machine: 'a1b2c3' };
const emptyLibrary: LibraryFacts = { dataDir: '/root/.local/share/satchel', empty: true, syncRemote: undefined, warn: true };

test('a local window, and the UI side of a remote window, hold the library on the user\'s computer: nothing to say', () => {
  const local: HostFacts = { remoteName: undefined, onWorkspaceSide: false, inBrowser: false, machine: 'laptop' };
  assert.equal(runsRemotely(local), false);
  assert.equal(remoteNotice(local, emptyLibrary), undefined);
  const uiSide: HostFacts = { ...container, onWorkspaceSide: false, machine: 'laptop' };
  assert.equal(runsRemotely(uiSide), false);
  assert.equal(remoteNotice(uiSide, emptyLibrary), undefined);
});

test('forced onto a dev container with an empty library: says where it runs, which library, that it is lost on rebuild, and offers the sync remote', () => {
  assert.equal(runsRemotely(container), true);
  const notice = remoteNotice(container, emptyLibrary);
  assert.ok(notice);
  assert.match(notice.message, /^Satchel is running in the dev container \(a1b2c3\), not on your computer, because it is installed only there or remote\.extensionKind puts it there\./);
  assert.match(notice.message, /Its library there, \/root\/\.local\/share\/satchel, is empty and is lost when the container is rebuilt\./);
  assert.match(notice.message, /Install Satchel on your computer .* or set a sync remote\.$/);
  assert.deepEqual(notice.actions, ['Set Sync Remote…', 'Learn More', "Don't Show Again"]);
});

test('a browser window (Codespaces, code-server) has no local side: the notice asks for a sync remote', () => {
  const codespace: HostFacts = { remoteName: 'codespaces', onWorkspaceSide: true, inBrowser: true, machine: 'codespaces-12ab' };
  const notice = remoteNotice(codespace, emptyLibrary);
  assert.match(notice?.message ?? '', /^Satchel is running in the codespace \(codespaces-12ab\), not on your computer: a browser window has no local side\. .* is empty and is lost when the codespace is deleted\. Set a sync remote/);
  const codeServer: HostFacts = { remoteName: '127.0.0.1:8080', onWorkspaceSide: true, inBrowser: true, machine: 'devbox' };
  assert.match(remoteNotice(codeServer, emptyLibrary)?.message ?? '', /^Satchel is running on the remote machine \(devbox\)/);
  assert.doesNotMatch(remoteNotice(codeServer, emptyLibrary)?.message ?? '', /lost/, 'a machine that stays keeps its library');
});

test('a library with records, a sync remote, or the warning turned off: no notice, but the log still says where the library is', () => {
  assert.equal(remoteNotice(container, { ...emptyLibrary, empty: false }), undefined);
  assert.equal(remoteNotice(container, { ...emptyLibrary, syncRemote: 'git@example.com:me/snippets.git' }), undefined);
  assert.equal(remoteNotice(container, { ...emptyLibrary, warn: false }), undefined);
  assert.equal(remoteLogLine(container, '/data'), 'Satchel runs on the remote machine a1b2c3 (dev-container); its library there is /data, not the one on your computer.');
});
