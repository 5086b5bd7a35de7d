/**
 * The Models view: the catalog with each model's state (available, downloading with progress,
 * downloaded, loaded with its RAM). Download progress comes from the model's progress stream.
 */
import * as vscode from 'vscode';
import type { Model, ModelDownloadProgress } from '../../core/piecesTypes.ts';
import type { LiveCollectionSource } from '../liveCollection.ts';
import { LiveTreeView } from './liveTreeView.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { Log } from '../log.ts';

export type ModelsNode = { readonly type: 'model'; readonly model: Model };

export type ModelState = 'available' | 'downloading' | 'downloaded' | 'loaded';

export function modelState(model: Model): ModelState {
  if (model.loaded) return 'loaded';
  if (model.downloading) return 'downloading';
  if (model.downloaded) return 'downloaded';
  return 'available';
}

export class ModelsView extends LiveTreeView<Model, ModelsNode> {
  /** Latest download percentage per model id (from the progress streams). */
  readonly progress = new Map<string, number>();
  readonly onDidChangeModels = this.onDidChangeItems;

  constructor(server: ServerController, log: Log) {
    super('satchel.models', log);
    this.follow(server);
  }

  get models(): readonly Model[] {
    return this.items;
  }

  protected source(connection: Connection): LiveCollectionSource<Model> {
    return {
      open: () => connection.client.modelIdentifiers(),
      key: (entry) => entry.model?.id,
      fetch: (id) => connection.client.models.get(id),
    };
  }

  protected describe(): string | undefined {
    const loaded = this.items.filter((model) => model.loaded).length;
    return loaded ? `${loaded} loaded` : undefined;
  }

  /** Records a progress frame so the tree shows it. */
  setProgress(id: string, frame: ModelDownloadProgress): void {
    if (typeof frame.percentage === 'number') this.progress.set(id, frame.percentage);
    this.refreshView();
  }

  getChildren(node?: ModelsNode): ModelsNode[] {
    if (node) return [];
    const order: Record<ModelState, number> = { loaded: 0, downloading: 1, downloaded: 2, available: 3 };
    // Cloud entries are stand-ins real Pieces clients ask for by name; nothing to manage in the editor.
    return [...this.models]
      .filter((model) => !model.cloud)
      .sort((a, b) => order[modelState(a)] - order[modelState(b)] || a.name.localeCompare(b.name))
      .map((model) => ({ type: 'model', model }));
  }

  getTreeItem(node: ModelsNode): vscode.TreeItem {
    const { model } = node;
    const state = modelState(model);
    const item = new vscode.TreeItem(model.name, vscode.TreeItemCollapsibleState.None);
    item.id = `model:${model.id}`;
    const size = model.bytes?.readable;
    const ram = model.ram?.readable;
    const parts: string[] = [];
    if (state === 'downloading') parts.push(`downloading ${Math.round(this.progress.get(model.id) ?? 0)}%`);
    else if (state === 'loaded') parts.push(`loaded${ram ? ` · ${ram} RAM` : ''}`);
    else if (state === 'downloaded') parts.push(`downloaded${size ? ` · ${size}` : ''}`);
    else parts.push(size ? `${size} download` : 'not downloaded');
    item.description = parts.join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      state === 'loaded' ? 'circle-filled' : state === 'downloading' ? 'sync~spin' : state === 'downloaded' ? 'pass' : 'cloud-download',
      state === 'loaded' ? new vscode.ThemeColor('charts.green') : undefined,
    );
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${model.name}**\n\n`);
    if (model.description) tooltip.appendText(`${model.description}\n\n`);
    tooltip.appendMarkdown(`State: ${state}  \nUsage: ${String(model.usage ?? '')}  \n`);
    if (size) tooltip.appendMarkdown(`Size: ${size}  \n`);
    if (ram) tooltip.appendMarkdown(`RAM when loaded: ${ram}  \n`);
    item.tooltip = tooltip;
    item.contextValue = `model:${state}${model.custom ? ':custom' : ''}`;
    return item;
  }
}
