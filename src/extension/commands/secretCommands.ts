/**
 * What the user does about a secret the host found in a snippet: Replace Secret with Placeholder (the
 * value becomes a named tab stop, an ordinary conditional edit of the snippet), Not a Secret (the value is
 * never flagged again), Forget Secret (the value leaves the snippet, its revisions and the trash: the one
 * write that rewrites history, confirmed first, a backup taken by the host), Sync With Its Secret (the
 * per-snippet exception to redaction on sync, a toggle), and the list of flagged snippets the status bar
 * item opens. Each takes a tree node, a snippet id, a document, or a mark's target (snippet and finding);
 * with none, the active snippet document.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import type { Forgotten } from '../../client/secrets.ts';
import { placeholderFor } from '../../core/secrets/findings.ts';
import { assetLanguage } from '../../client/assets.ts';
import { snippetOf } from '../editing/snippetFileSystem.ts';
import type { AssetsNode } from '../views/assetsView.ts';
import type { SecretTarget } from '../secrets/secretMarks.ts';
import { assetSecrets, describeSecret, hideSecrets, type SnippetSecret } from '../secrets/snippetSecrets.ts';
import { replaceSecretsWithPlaceholders } from '../secrets/replaceSecrets.ts';
import { languageName } from '../languageNames.ts';
import { connected, type CommandMap, type Services } from './services.ts';

export type SecretArg = AssetsNode | SecretTarget | vscode.Uri | string | undefined;

/** A snippet with secrets, as the host has it now, and the finding the command was given (if any). */
export interface SecretSubject {
  readonly asset: Asset;
  readonly secrets: readonly SnippetSecret[];
  readonly sensitive: string | undefined;
}

/** The snippet (read from the host now) and finding a command is about. */
export async function secretSubject(s: Services, arg: SecretArg): Promise<SecretSubject | undefined> {
  let id: string | undefined;
  let sensitive: string | undefined;
  if (typeof arg === 'string') id = arg;
  else if (arg instanceof vscode.Uri) id = snippetOf(arg)?.id;
  else if (arg && 'type' in arg) id = arg.type === 'asset' ? arg.asset.id : undefined;
  else if (arg && 'asset' in arg) ({ asset: id, sensitive } = arg);
  else {
    const active = vscode.window.activeTextEditor?.document.uri;
    id = active && snippetOf(active)?.id;
    if (!id) id = (await pickFlagged(s))?.id;
  }
  if (!id) return undefined;
  const asset = await connected(s.server).client.assets.get(id);
  const secrets = assetSecrets(asset);
  if (!secrets.length) {
    void vscode.window.showInformationMessage(`Satchel found no secret in "${nameOf(asset)}".`);
    return undefined;
  }
  if (sensitive && !secrets.some((secret) => secret.id === sensitive)) {
    throw new Error(`That secret is no longer recorded in "${nameOf(asset)}" (the snippet changed since).`);
  }
  return { asset, secrets, sensitive };
}

/**
 * The findings a command acts on: the one it was given, the only one, or the user's pick (with an "all"
 * entry when `all` is offered). Undefined when the user cancels.
 */
export async function chooseSecrets(subject: SecretSubject, title: string, all: boolean): Promise<readonly SnippetSecret[] | undefined> {
  const { secrets, sensitive } = subject;
  if (sensitive) return secrets.filter((secret) => secret.id === sensitive);
  if (secrets.length === 1) return secrets;
  type Item = vscode.QuickPickItem & { chosen: readonly SnippetSecret[] };
  const items: Item[] = secrets.map((secret) => ({ label: `$(key) ${describeSecret(secret)}`, chosen: [secret] }));
  if (all) items.unshift({ label: `All ${secrets.length} secrets`, chosen: secrets });
  return (await vscode.window.showQuickPick(items, { title, placeHolder: nameOf(subject.asset) }))?.chosen;
}

export function nameOf(asset: Asset): string {
  const secrets = assetSecrets(asset);
  const name = asset.name || 'Untitled';
  return secrets.length ? hideSecrets(name, secrets) : name;
}

export function secretCommands(s: Services): CommandMap {
  return {
    'satchel.secret.replaceWithPlaceholder': async (arg?: SecretArg) => {
      const subject = await secretSubject(s, arg);
      if (!subject) return undefined;
      // A tab stop goes into the code: values only in the name or description are left to Forget Secret.
      const inCode = { ...subject, secrets: subject.secrets.filter((secret) => secret.line !== undefined) };
      if (!inCode.secrets.length || (subject.sensitive && !inCode.secrets.some((secret) => secret.id === subject.sensitive))) {
        throw new Error(`The secret is not in the code of "${nameOf(subject.asset)}" (it is in its name or description).`);
      }
      const chosen = await chooseSecrets(inCode, 'Replace which secret with a placeholder?', true);
      return chosen?.length ? replaceWithPlaceholders(s, subject.asset, chosen) : undefined;
    },
    'satchel.secret.notASecret': async (arg?: SecretArg) => {
      const subject = await secretSubject(s, arg);
      const [secret] = (subject && (await chooseSecrets(subject, 'Which one is not a secret?', false))) ?? [];
      if (!subject || !secret) return undefined;
      await connected(s.server).client.secrets.dismiss(subject.asset.id, secret.id);
      // The value is dismissed everywhere: every snippet of the view holding it is read again.
      const holding = s.assets.assets.filter((asset) => asset.id !== subject.asset.id && assetSecrets(asset).some((other) => other.value === secret.value));
      await Promise.all(holding.map((asset) => s.assets.reload(asset.id)));
      await afterChange(s, subject.asset.id);
      void vscode.window.setStatusBarMessage(`$(pass) Not a secret: that ${secret.label} is no longer flagged, in any snippet`, 5_000);
      return secret.id;
    },
    'satchel.secret.forget': async (arg?: SecretArg, options?: { confirmed?: boolean }) => {
      const subject = await secretSubject(s, arg);
      const chosen = subject && (await chooseSecrets(subject, 'Forget which secret?', true));
      if (!subject || !chosen?.length) return undefined;
      const every = chosen.length === subject.secrets.length && chosen.length > 1;
      if (!options?.confirmed && !(await confirmForget(subject.asset, chosen, every))) return undefined;
      const forgotten: Forgotten = await connected(s.server).client.secrets.forget(subject.asset.id, every ? undefined : chosen[0]!.id);
      await afterChange(s, subject.asset.id);
      s.documents.changed(subject.asset.id);
      void vscode.window.showInformationMessage(
        `Forgot ${forgotten.values === 1 ? 'the secret' : `${forgotten.values} secrets`} of "${nameOf(subject.asset)}": the snippet, ${forgotten.revisionTexts + forgotten.revisionNames} revision ${forgotten.revisionTexts + forgotten.revisionNames === 1 ? 'field' : 'fields'} and ${forgotten.trashRows} trash ${forgotten.trashRows === 1 ? 'record' : 'records'} now hold the placeholder. The backup ${forgotten.backup} still holds the value.`,
      );
      return forgotten;
    },
    'satchel.secret.syncWithSecret': async (arg?: SecretArg, include?: boolean) => {
      const subject = await secretSubject(s, arg);
      if (!subject) return undefined;
      const { client } = connected(s.server);
      const name = nameOf(subject.asset);
      const now = (await client.secrets.syncsWithSecrets(subject.asset.id)).include;
      let wanted = include;
      if (wanted === undefined) {
        const kinds = [...new Set(subject.secrets.map((secret) => secret.label))].join(', ');
        const answer = now
          ? await vscode.window.showInformationMessage(
              `"${name}" syncs with its secret. Sync it with placeholders again?`,
              { modal: true, detail: `The next sync pushes ${placeholderFor(subject.secrets[0]!)} (and the like) instead of the values; what was pushed before stays in the remote's history.` },
              'Sync With Placeholders',
            )
          : await vscode.window.showWarningMessage(
              `Sync "${name}" with its secret?`,
              { modal: true, detail: `Its ${kinds} will be pushed to your sync remote as written, into its history. Agents and exports still get placeholders.` },
              'Sync With Its Secret',
            );
        if (!answer) return undefined;
        wanted = !now;
      }
      const setting = await client.secrets.setSyncWithSecrets(subject.asset.id, wanted);
      await s.secretsStatus.update();
      void vscode.window.setStatusBarMessage(setting.include ? `$(key) "${name}" syncs with its secret` : `$(lock) "${name}" syncs with placeholders`, 5_000);
      return setting.include;
    },
    'satchel.secrets.list': async () => {
      const asset = await pickFlagged(s);
      if (asset) await vscode.commands.executeCommand('satchel.asset.open', asset.id);
      return asset?.id;
    },
  };
}

/**
 * Turns each chosen value into a named tab stop: one conditional edit of the snippet through the host (a
 * revision; Show History brings the value back if wanted), which open documents follow. A document of the
 * snippet with unsaved changes is left to the user to save or revert first, so nothing typed is lost.
 */
async function replaceWithPlaceholders(s: Services, asset: Asset, chosen: readonly SnippetSecret[]): Promise<number> {
  const dirty = vscode.workspace.textDocuments.find((document) => document.isDirty && snippetOf(document.uri)?.id === asset.id);
  if (dirty) throw new Error(`"${nameOf(asset)}" has unsaved changes in an editor: save or revert them, then replace the secret.`);
  const replaced = await replaceSecretsWithPlaceholders(
    connected(s.server).client,
    asset.id,
    chosen.map((secret) => secret.id),
  );
  s.documents.changed(asset.id);
  await afterChange(s, asset.id);
  void vscode.window.setStatusBarMessage(`$(key) Replaced ${replaced === 1 ? 'a secret' : `${replaced} secrets`} with placeholders in ${nameOf(asset)}`, 4_000);
  return replaced;
}

/** After the host changed a snippet's findings: the view reads it again, and the status its counts. */
async function afterChange(s: Services, id: string): Promise<void> {
  await s.assets.reload(id);
  await s.secretsStatus.update();
}

/** The modal confirmation of Forget Secret: it rewrites history, and a backup is taken first. */
async function confirmForget(asset: Asset, chosen: readonly SnippetSecret[], every: boolean): Promise<boolean> {
  const what = every ? `the ${chosen.length} secrets` : `the ${chosen[0]!.label}`;
  const answer = await vscode.window.showWarningMessage(
    `Forget ${what} in "${nameOf(asset)}"?`,
    {
      modal: true,
      detail:
        `The value is replaced by ${placeholderFor(chosen[0]!)} in the snippet, and removed from every earlier revision of it and from the trash. ` +
        'This rewrites history: no revision will hold it again. A backup of the library is taken first, and is then the only copy that holds the value.',
    },
    'Forget Secret',
  );
  return answer === 'Forget Secret';
}

/** The flagged snippets of the library to pick from (newest first), as the host lists them. */
async function pickFlagged(s: Services): Promise<Asset | undefined> {
  const { client } = connected(s.server);
  const flagged = await client.secrets.flagged();
  if (!flagged.length) {
    void vscode.window.showInformationMessage('No saved snippet holds a secret Satchel knows of.');
    return undefined;
  }
  type Item = vscode.QuickPickItem & { asset: Asset };
  // With their text, so each finding says its line (the view holds only the snippets it shows).
  const full = (await client.snippets.byId(flagged.map((entry) => entry.asset), { transferables: true }))
    .filter((asset) => assetSecrets(asset).length > 0)
    .sort((a, b) => (b.updated?.value ?? '').localeCompare(a.updated?.value ?? ''));
  const items: Item[] = full.map((asset) => ({
    label: `$(key) ${nameOf(asset)}`,
    description: languageName(assetLanguage(asset)),
    detail: assetSecrets(asset).map(describeSecret).join('; '),
    asset,
  }));
  return (await vscode.window.showQuickPick(items, { title: 'Snippets holding secrets', matchOnDetail: true }))?.asset;
}
