/** The Models view's actions: downloads with a cancellable progress notification, loading, imports. */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { Model, ModelDownloadProgress } from '../../core/piecesTypes.ts';
import type { ModelsNode } from '../views/modelsView.ts';
import { connected, withStatus, type CommandMap, type Services } from './services.ts';
import { localPath } from '../workspaceFiles.ts';

type ModelArg = ModelsNode | Model | string | undefined;

function modelId(arg: ModelArg): string {
  const id = typeof arg === 'string' ? arg : arg && 'model' in arg ? arg.model.id : arg?.id;
  if (!id) throw new Error('Choose a model in the Models view.');
  return id;
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELED']);

export function modelCommands(s: Services): CommandMap {
  const { server, models } = s;

  /** Starts a download and follows its progress stream until it ends; returns the final status. */
  const download = async (arg: ModelArg): Promise<string> => {
    const id = modelId(arg);
    const { client } = connected(server);
    const name = models.models.find((m) => m.id === id)?.name ?? 'model';
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Downloading ${name}`, cancellable: true },
      (progress, token) =>
        new Promise<string>((resolve, reject) => {
          const stream = client.downloadProgress(id);
          let reported = 0;
          let started = false;
          const finish = (status: string) => {
            stream.dispose();
            cancel.dispose();
            void models.reload(id);
            resolve(status);
          };
          const cancel = token.onCancellationRequested(() => {
            void client.models.cancelDownload(id).catch((error: unknown) => s.log.warn(`Cancel failed: ${(error as Error).message}`));
          });
          stream.onFrame((frame: ModelDownloadProgress) => {
            models.setProgress(id, frame);
            const percentage = typeof frame.percentage === 'number' ? frame.percentage : undefined;
            if (percentage !== undefined && percentage > reported) {
              progress.report({ increment: percentage - reported, message: `${Math.round(percentage)}%` });
              reported = percentage;
            }
            // The stream's first frame may be a final state of an earlier download.
            if (started && frame.status && FINAL.has(frame.status)) finish(frame.status);
          });
          stream.onDidChangeConnected((isConnected) => {
            if (!isConnected || started) return;
            started = true;
            // The state is read back from Satchel's route: the Pieces reply shows an embedding model as not downloaded.
            client.models
              .download(id)
              .then(() => client.models.get(id))
              .then(
                (model) => {
                  void models.reload(id);
                  if (model.downloaded && !model.downloading) finish('COMPLETED');
                },
                (error: unknown) => {
                  stream.dispose();
                  cancel.dispose();
                  reject(error);
                },
              );
          });
        }),
    );
  };

  /**
   * After an embedding model loads, Satchel makes a vector for every snippet in the background: a
   * cancellable notification shows how far it is, until it is done (search is hybrid from the start).
   */
  const followBackfill = async (): Promise<void> => {
    const { client } = connected(server);
    const first = await client.models.semanticStatus().catch(() => undefined);
    if (first?.state !== 'indexing') return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Semantic search: indexing snippets', cancellable: true },
      async (progress, token) => {
        const cancel = token.onCancellationRequested(() => {
          void client.models.cancelSemanticBackfill().catch((error: unknown) => s.log.warn(`Cancel failed: ${(error as Error).message}`));
        });
        try {
          let reported = 0;
          for (let status = first; status.state === 'indexing' && !token.isCancellationRequested; ) {
            const percentage = status.total > 0 ? (100 * status.done) / status.total : 0;
            progress.report({ increment: Math.max(0, percentage - reported), message: `${status.done} of ${status.total}` });
            reported = Math.max(reported, percentage);
            await new Promise((resolve) => setTimeout(resolve, 1000));
            status = await client.models.semanticStatus();
          }
        } catch (error) {
          s.log.warn(`Semantic search progress: ${(error as Error).message}`);
        } finally {
          cancel.dispose();
        }
      },
    );
  };

  return {
    'satchel.models.refresh': () => models.refresh(),
    'satchel.model.download': download,
    'satchel.model.cancelDownload': async (arg: ModelArg) => {
      const model = await connected(server).client.models.cancelDownload(modelId(arg));
      await models.reload(model.id);
      return model;
    },
    'satchel.model.load': async (arg: ModelArg) => {
      const id = modelId(arg);
      const model = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Loading the model into memory…' },
        () => connected(server).client.models.load(id),
      );
      await models.reload(id);
      if (model.usage === 'TEXT_EMBEDDING') void followBackfill();
      return model;
    },
    'satchel.model.unload': async (arg: ModelArg) => {
      const id = modelId(arg);
      const model = await withStatus('Unloading…', () => connected(server).client.models.unload(id));
      await models.reload(id);
      return model;
    },
    'satchel.models.unloadAll': async () => {
      await connected(server).client.models.unloadAll();
      models.refresh();
    },
    'satchel.model.deleteCache': async (arg: ModelArg, options?: { confirmed?: boolean }) => {
      const id = modelId(arg);
      const name = models.models.find((m) => m.id === id)?.name ?? 'this model';
      if (!options?.confirmed) {
        const answer = await vscode.window.showWarningMessage(`Delete the downloaded files of ${name}?`, { modal: true }, 'Delete');
        if (answer !== 'Delete') return false;
      }
      await connected(server).client.models.deleteCache(id);
      await models.reload(id);
      return true;
    },
    'satchel.models.import': async (file?: vscode.Uri) => {
      const uri =
        file instanceof vscode.Uri
          ? file
          : // The host copies the file beside the library, on this computer: the dialog opens there, also in a remote window.
            (await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(homedir()), filters: { 'GGUF models': ['gguf'] }, openLabel: 'Import' }))?.[0];
      if (!uri) return undefined;
      const path = localPath(uri, 'A model file');
      const model = await withStatus('Importing the model file…', () => connected(server).client.models.importFile({ path }));
      await models.reload(model.id);
      return model;
    },
  };
}
