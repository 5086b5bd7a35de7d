/** Saving, finding and using assets: the editor commands and the Assets view's item actions. */
import * as vscode from 'vscode';
import type { Asset, ClassificationSpecific } from '../../core/piecesTypes.ts';
import { assetLanguage, assetText, hasContent, type ExportType } from '../../client/assets.ts';
import { descriptionUri, snippetOf, snippetUri } from '../editing/snippetFileSystem.ts';
import { fromVscodeLanguage, knownLanguages, languageName } from '../languageNames.ts';
import { languageOf } from '../../core/classify/languages.ts';
import { saveText } from '../saving.ts';
import type { AssetsNode, Grouping } from '../views/assetsView.ts';
import type { PendingSuggestion } from '../copyConnector.ts';
import { connected, type CommandMap, type Services } from './services.ts';
import { insertableAsset, insertSnippet } from '../snippetInsertion.ts';
import { baseName, defaultSaveUri, writeWorkspaceFile } from '../workspaceFiles.ts';
import { restoreFromTrash } from './trashCommands.ts';
import { safeFileName } from '../../core/fileNames.ts';

export type AssetArg = AssetsNode | Asset | string | undefined;

/** An asset with its content, from a tree node, an asset, an id, or (with no argument) a search. */
export async function resolveAsset(s: Services, arg: AssetArg): Promise<Asset | undefined> {
  const { client } = connected(s.server);
  let id: string | undefined;
  if (typeof arg === 'string') id = arg;
  else if (arg && 'type' in arg && arg.type === 'asset') id = arg.asset.id;
  else if (arg && 'id' in arg) id = arg.id;
  else if (arg && 'type' in arg && arg.type === 'suggestion') id = arg.suggestion.asset?.id;
  if (!id) return pickAsset(s);
  const held = s.assets.asset(id);
  // The view holds snippets without their text; the commands given one copy, insert or export it.
  return held && hasContent(held) ? held : client.assets.get(id);
}

export function assetCommands(s: Services): CommandMap {
  const { server, assets, connector } = s;

  const save = async (text: string, language: string | undefined, name?: string): Promise<Asset> => {
    const asset = await saveText(server, { text, language, name });
    void assets.reload(asset.id);
    void vscode.window.setStatusBarMessage(`$(check) Saved to Satchel: ${asset.name ?? 'asset'}`, 4_000);
    return asset;
  };

  const resolve = (arg: AssetArg): Promise<Asset | undefined> => resolveAsset(s, arg);

  /** As completion and drag and drop insert: a snippet template's tab stops work, plain code goes in as written. */
  const insert = async (asset: Asset): Promise<boolean> => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage('Open an editor to insert the asset into.');
      return false;
    }
    const done = await insertSnippet(editor, await insertableAsset(connected(server).client, asset));
    if (done) void connector.track(asset.id, 'inserted');
    return done;
  };

  /** The snippet's editable document; a language its file extension does not tell VS Code is set on it. */
  const open = async (asset: Asset): Promise<vscode.TextEditor> => {
    const language = assetLanguage(asset);
    const document = await vscode.workspace.openTextDocument(snippetUri(asset.id, asset.name || 'Untitled', language));
    const vscodeId = languageOf((language ?? '') as ClassificationSpecific)?.vscodeId;
    const shown = vscodeId && document.languageId === 'plaintext' && vscodeId !== 'plaintext' ? await setLanguage(document, vscodeId) : document;
    return vscode.window.showTextDocument(shown, { preview: true });
  };
  connector.openAsset = async (asset) => {
    await open(asset);
  };

  const exportAs = async (arg: AssetArg, type: ExportType, target?: vscode.Uri): Promise<vscode.Uri | undefined> => {
    const asset = await resolve(arg);
    if (!asset) return undefined;
    const { client } = connected(server);
    const extension = type === 'MD' ? 'md' : 'html';
    const defaultUri = defaultSaveUri(`${safeFileName(asset.name ?? '', 'asset')}.${extension}`);
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        ...(defaultUri ? { defaultUri } : {}),
        filters: type === 'MD' ? { Markdown: ['md'] } : { HTML: ['html', 'htm'] },
      }));
    if (!uri) return undefined;
    const exported = await client.assets.export(asset.id, type);
    const raw = exported.raw;
    // Through VS Code's file system: the target may be in a remote or virtual folder.
    await writeWorkspaceFile(uri, raw.string?.raw ?? (raw.bytes?.raw ? Uint8Array.from(raw.bytes.raw) : ''));
    void vscode.window.setStatusBarMessage(`$(check) Exported ${asset.name ?? 'asset'} to ${baseName(uri)}`, 4_000);
    return uri;
  };

  return {
    'satchel.saveSelection': async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selections.every((selection) => selection.isEmpty)) {
        void vscode.window.showWarningMessage('Select some code first.');
        return undefined;
      }
      const text = editor.selections.map((selection) => editor.document.getText(selection)).join('\n');
      return save(text, fromVscodeLanguage(editor.document.languageId));
    },
    'satchel.saveFile': async (uri?: vscode.Uri) => {
      const document = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document) {
        void vscode.window.showWarningMessage('Open a file to save it.');
        return undefined;
      }
      return save(document.getText(), fromVscodeLanguage(document.languageId), baseName(document.uri));
    },
    'satchel.saveClipboard': async () => save(await vscode.env.clipboard.readText(), undefined),
    'satchel.searchAssets': async (initialQuery?: string) => {
      const asset = await pickAsset(s, typeof initialQuery === 'string' ? initialQuery : '');
      if (!asset) return undefined;
      if (vscode.window.activeTextEditor) await insert(asset);
      else await open(asset);
      return asset;
    },
    'satchel.insertAsset': async (arg?: AssetArg) => {
      const asset = await resolve(arg);
      return asset && (await insert(asset)) ? asset : undefined;
    },
    'satchel.assets.refresh': () => assets.refresh(),
    'satchel.assets.loadMore': (node?: AssetsNode) => (node ? assets.loadMore(node) : undefined),
    'satchel.assets.groupByTag': () => assets.setGrouping('tag' satisfies Grouping),
    'satchel.assets.groupByLanguage': () => assets.setGrouping('language' satisfies Grouping),
    'satchel.asset.insert': async (arg: AssetArg) => {
      const asset = await resolve(arg);
      return asset && (await insert(asset)) ? asset : undefined;
    },
    'satchel.asset.copy': async (arg: AssetArg) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      await vscode.env.clipboard.writeText(assetText(asset));
      void connector.track(asset.id, 'copied');
      void vscode.window.setStatusBarMessage(`$(copy) Copied ${asset.name ?? 'asset'}`, 3_000);
      return asset;
    },
    'satchel.asset.open': async (arg: AssetArg) => {
      const asset = await resolve(arg);
      return asset ? open(asset) : undefined;
    },
    'satchel.editDescription': async (arg?: AssetArg | vscode.Uri) => {
      // From a snippet's editor title, the argument is its document.
      const fromEditor = arg instanceof vscode.Uri ? snippetOf(arg) : undefined;
      const asset = await resolve(fromEditor ? fromEditor.id : (arg as AssetArg));
      if (!asset) return undefined;
      const document = await vscode.workspace.openTextDocument(descriptionUri(asset.id, asset.name || 'Untitled'));
      return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    },
    'satchel.asset.rename': async (arg: AssetArg, newName?: string) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      const name = newName ?? (await vscode.window.showInputBox({ prompt: 'New name', value: asset.name ?? '' }));
      if (!name?.trim()) return undefined;
      const from = snippetUri(asset.id, asset.name || 'Untitled', assetLanguage(asset));
      if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === from.toString())) {
        // Renamed as a file, so its open editor (unsaved changes and all) follows to the new name.
        const edit = new vscode.WorkspaceEdit();
        edit.renameFile(from, snippetUri(asset.id, name.trim(), assetLanguage(asset)));
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not rename "${asset.name ?? 'asset'}".`);
      } else {
        await connected(server).client.assets.rename(asset.id, name.trim());
      }
      await assets.reload(asset.id);
      return connected(server).client.assets.get(asset.id);
    },
    'satchel.asset.tags': async (arg: AssetArg, tagText?: string) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      const tags = asset.tags?.iterable ?? [];
      const current = tags.map((tag) => tag.text);
      const input =
        tagText ?? (await vscode.window.showInputBox({ prompt: 'Tags, separated by commas', value: current.join(', ') }));
      if (input === undefined) return undefined;
      const wanted = [...new Set(input.split(',').map((tag) => tag.trim()).filter(Boolean))];
      const { client } = connected(server);
      for (const text of wanted.filter((tag) => !current.includes(tag))) await client.assets.addTag(asset.id, text);
      for (const tag of tags.filter((tag) => !wanted.includes(tag.text))) await client.assets.removeTag(asset.id, tag.id);
      await assets.reload(asset.id);
      return wanted;
    },
    'satchel.asset.linkWebsite': async (arg: AssetArg, url?: string) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      const website =
        url ??
        (await vscode.window.showInputBox({
          prompt: 'Website to link to this asset',
          placeHolder: 'https://…',
          validateInput: (value) => (/^https?:\/\/\S+$/i.test(value.trim()) ? undefined : 'Enter an http(s) URL'),
        }));
      if (!website) return undefined;
      await connected(server).client.assets.linkWebsite(asset.id, website.trim());
      await assets.reload(asset.id);
      return website.trim();
    },
    'satchel.asset.reclassify': async (arg: AssetArg, language?: string) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      const current = assetLanguage(asset);
      const ext =
        language ??
        (
          await vscode.window.showQuickPick(
            knownLanguages().map(([value, label]) => ({ label, description: value === current ? 'current' : value, value })),
            { placeHolder: `Language of ${asset.name ?? 'the asset'} (now ${languageName(current)})` },
          )
        )?.value;
      if (!ext) return undefined;
      const updated = await connected(server).client.assets.reclassify(asset, ext);
      await assets.reload(asset.id);
      return updated;
    },
    'satchel.asset.exportMarkdown': (arg: AssetArg, target?: vscode.Uri) => exportAs(arg, 'MD', target),
    'satchel.asset.exportHtml': (arg: AssetArg, target?: vscode.Uri) => exportAs(arg, 'HTML', target),
    'satchel.asset.delete': async (arg: AssetArg) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      await connected(server).client.assets.delete(asset.id);
      await assets.reload(asset.id);
      // The asset went to the trash: Undo restores it whole (its id, tags, links and history).
      void vscode.window.showInformationMessage(`Moved "${asset.name || 'Untitled'}" to the trash.`, 'Undo').then(async (choice) => {
        if (choice !== 'Undo') return;
        try {
          await restoreFromTrash(s, asset.id, asset.name || 'Untitled');
        } catch (error) {
          void vscode.window.showErrorMessage(`Undo failed: ${(error as Error).message}`);
        }
      });
      return asset.id;
    },
    'satchel.suggestion.save': async (node: { suggestion: PendingSuggestion }) => {
      const id = await connector.save(node.suggestion);
      await assets.reload(id);
      return id;
    },
    'satchel.suggestion.reuse': (node: { suggestion: PendingSuggestion }) => connector.reuse(node.suggestion),
    'satchel.suggestion.dismiss': (node: { suggestion: PendingSuggestion }) => connector.dismiss(node.suggestion),
  };
}

/** The document in another language (VS Code closes it and opens it again under the new one). */
function setLanguage(document: vscode.TextDocument, languageId: string): Thenable<vscode.TextDocument> {
  return vscode.languages.getLanguages().then((known) => (known.includes(languageId) ? vscode.languages.setTextDocumentLanguage(document, languageId) : document));
}

/**
 * The search quick pick: queries `/assets/search` as the user types (the previous query is
 * cancelled), showing each hit's language and first line.
 */
export async function pickAsset(s: Services, initialQuery = ''): Promise<Asset | undefined> {
  const { client } = connected(s.server);
  type Item = vscode.QuickPickItem & { asset: Asset };
  const pick = vscode.window.createQuickPick<Item>();
  pick.placeholder = 'Search saved assets by name, content or tag';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let inflight: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = async (query: string) => {
    inflight?.abort();
    const controller = new AbortController();
    inflight = controller;
    pick.busy = true;
    try {
      const found = query.trim()
        ? (await client.assets.search(query, { signal: controller.signal })).iterable.flatMap((hit) => (hit.asset ? [hit.asset] : []))
        : // The newest, with their text (the view holds them without it) for the detail line and the command.
          await client.snippets.byId(newestHeld(s.assets.assets, 50), { transferables: true, signal: controller.signal });
      if (controller.signal.aborted) return;
      pick.items = found.map((asset) => ({
        label: asset.name || 'Untitled',
        description: languageName(assetLanguage(asset)),
        detail: assetText(asset).trim().split('\n')[0]?.slice(0, 120),
        asset,
        alwaysShow: true,
      }));
    } catch (error) {
      if (!controller.signal.aborted) s.log.warn(`Search failed: ${(error as Error).message}`);
    } finally {
      if (inflight === controller) pick.busy = false;
    }
  };
  pick.onDidChangeValue((value) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(value), 120);
  });
  const chosen = new Promise<Asset | undefined>((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.asset);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      clearTimeout(timer);
      inflight?.abort();
      pick.dispose();
    });
  });
  pick.value = initialQuery;
  pick.show();
  await run(initialQuery);
  return chosen;
}

/** The ids of the newest snippets the view holds (its open groups' and the last changes'). */
function newestHeld(assets: readonly Asset[], limit: number): string[] {
  return [...assets].sort((a, b) => (b.updated?.value ?? '').localeCompare(a.updated?.value ?? '')).slice(0, limit).map((asset) => asset.id);
}
