/**
 * The Assets view pages its groups in a real VS Code: a language with more snippets than a page
 * shows the first page and a "Load more…" row; the command reads the next page; the group's count is
 * the host's. Screenshot: assets-paged (the group open in the side bar, the row at its end).
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { screenshot, until } from './support.ts';
import { activated, pause, showAssets } from './assetsWorkbench.ts';
import type { AssetsNode, GroupNode } from '../../../src/extension/views/assetsView.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { SatchelClient } from '../../../src/client/satchelClient.ts';

/** More than one page (views/assetsData.ts pages 100 records). */
const SNIPPETS = 130;

let api: SatchelExtension;
let client: SatchelClient;

describe('Assets view paging', function () {
  this.timeout(120_000);

  before(async function () {
    ({ api, client } = await activated());
  });

  it('opens a group of more than a page a page at a time, with "Load more…"', async () => {
    const application = await api.server.application();
    for (let at = 0; at < SNIPPETS; at += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, SNIPPETS - at) }, (_, i) =>
          client.assets.createFromText({ text: `fn paged_${at + i}() -> u32 {\n    ${at + i}\n}\n`, application, language: 'rs', name: `paged ${String(at + i).padStart(3, '0')}` }),
        ),
      );
    }
    const group = await until('the Rust group with every snippet', () =>
      api.assets.getChildren().find((node): node is GroupNode => node.type === 'group' && node.pageKey === 'rs' && node.count >= SNIPPETS),
    );
    assert.equal(api.assets.getTreeItem(group).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'a large library starts with its groups closed');
    assert.equal(api.assets.getTreeItem(group).description, String(group.count));

    const first = await api.assets.getChildren(group);
    const assets = first.filter((node) => node.type === 'asset');
    const more = first.at(-1);
    assert.equal(assets.length, 100, 'one page');
    assert.ok(more?.type === 'more', 'a "Load more…" row ends it');
    const item = api.assets.getTreeItem(more);
    assert.equal(item.label, 'Load more…');
    assert.equal(item.description, `100 of ${group.count}`);
    assert.equal(item.command?.command, 'satchel.assets.loadMore');

    await showAssets();
    await api.assets.treeView.reveal(group, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
    await api.assets.treeView.reveal(more, { select: true, focus: true }).then(undefined, () => undefined);
    await pause(800);
    await screenshot('assets-paged');

    await vscode.commands.executeCommand('satchel.assets.loadMore', more);
    const all = await api.assets.getChildren(group);
    assert.equal(all.filter((node: AssetsNode) => node.type === 'asset').length, group.count, 'the rest after "Load more…"');
    assert.ok(!all.some((node) => node.type === 'more'), 'no row once all are read');
    const ids = all.flatMap((node) => (node.type === 'asset' ? [node.asset.id] : []));
    assert.equal(new Set(ids).size, ids.length, 'no snippet twice');
  });
});
