/**
 * Saved assets as VS Code snippets: a template made from the selection (placeholders proposed,
 * shown for confirmation, saved as snippet syntax), whether an asset is snippet syntax, its
 * prefixes, and export of one snippet or a tag to a `.code-snippets` file.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import { prefixFromName, templateFromSelection, type TemplateStop } from '../../core/snippets/template.ts';
import { suggestName } from '../../core/assets/content.ts';
import { fromVscodeLanguage, languageName } from '../languageNames.ts';
import type { AssetsNode } from '../views/assetsView.ts';
import { connected, type CommandMap, type Services } from './services.ts';
import { resolveAsset, type AssetArg } from './assetCommands.ts';
import { baseName, defaultSaveUri, writeWorkspaceFile } from '../workspaceFiles.ts';
import type { CodeSnippetsExport } from '../../wire/snippets.ts';

/** Answers given ahead (tests, keybindings with arguments): each one skips its question. */
export interface TemplateAnswers {
  readonly name?: string;
  readonly prefix?: string;
}

export function snippetCommands(s: Services): CommandMap {
  const { server, assets } = s;
  const resolve = (arg: AssetArg): Promise<Asset | undefined> => resolveAsset(s, arg);
  /** The asset an item command is for, with its snippet facts as the host has them now. */
  const snippetOf = async (arg: AssetArg) => {
    const asset = await resolve(arg);
    if (!asset) return undefined;
    const { client } = connected(server);
    return { asset, client, info: await client.snippets.info(asset.id) };
  };

  const exportFile = async (fileName: string, content: string, count: number, target: vscode.Uri | undefined): Promise<vscode.Uri | undefined> => {
    const defaultUri = defaultSaveUri(fileName);
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        ...(defaultUri ? { defaultUri } : {}),
        filters: { 'VS Code snippets': ['code-snippets'] },
        saveLabel: 'Export',
      }));
    if (!uri) return undefined;
    // Through the workspace file system: the file may be in a remote or virtual folder.
    await writeWorkspaceFile(uri, content);
    void vscode.window.setStatusBarMessage(`$(check) Exported ${count} snippet${count === 1 ? '' : 's'} to ${baseName(uri)}`, 4_000);
    return uri;
  };

  /**
   * The export as the host makes it: secrets as placeholders; when some snippet holds one, a modal asks
   * whether to write the values instead (issue 32). Undefined: the user cancelled.
   */
  const exported = async (selection: { asset: string } | { tag: string }): Promise<CodeSnippetsExport | undefined> => {
    const { client } = connected(server);
    const redacted = await client.snippets.exportCodeSnippets(selection);
    if (redacted.redacted === 0) return redacted;
    const include = 'Include the Secrets';
    const placeholders = 'Export with Placeholders';
    const what = redacted.redacted === 1 ? 'A snippet holds a secret' : `${redacted.redacted} snippets hold secrets`;
    const choice = await vscode.window.showWarningMessage(
      `${what} (a key, token, password or private key).`,
      { modal: true, detail: 'The file is written with a placeholder («secret: …») where each value is, unless you include the values. A .code-snippets file is often shared or committed.' },
      placeholders,
      include,
    );
    if (choice === undefined) return undefined;
    return choice === include ? client.snippets.exportCodeSnippets(selection, { includeSecrets: true }) : redacted;
  };

  return {
    'satchel.saveSelectionAsTemplate': async (answers: TemplateAnswers = {}) => saveSelectionAsTemplate(s, answers),
    'satchel.asset.snippetSyntax': async (arg: AssetArg, syntax?: boolean) => {
      const target = await snippetOf(arg);
      if (!target) return undefined;
      const { asset, client } = target;
      const current = target.info.syntax;
      const chosen =
        syntax ??
        (
          await vscode.window.showQuickPick(
            [
              { label: '$(symbol-snippet) Snippet template', description: current ? 'current' : '', detail: 'VS Code snippet syntax: $1, ${1:name} and ${1|a,b|} become tab stops, placeholders and choices', value: true },
              { label: '$(symbol-text) Plain code', description: current ? '' : 'current', detail: 'Inserted exactly as saved: a $ stays a $', value: false },
            ],
            { placeHolder: `How "${asset.name ?? 'the snippet'}" is inserted` },
          )
        )?.value;
      if (chosen === undefined) return undefined;
      return client.snippets.setInfo(asset.id, { syntax: chosen });
    },
    'satchel.asset.prefixes': async (arg: AssetArg, prefixes?: string) => {
      const target = await snippetOf(arg);
      if (!target) return undefined;
      const { asset, client } = target;
      const current = target.info.prefixes;
      const input =
        prefixes ??
        (await vscode.window.showInputBox({
          prompt: 'Prefixes, separated by commas: typing one offers this snippet in IntelliSense (each is also a tag)',
          value: current.join(', '),
        }));
      if (input === undefined) return undefined;
      const info = await client.snippets.setInfo(asset.id, { prefixes: input.split(',').map((prefix) => prefix.trim()).filter(Boolean) });
      await assets.reload(asset.id);
      return info;
    },
    'satchel.asset.exportSnippets': async (arg: AssetArg, target?: vscode.Uri) => {
      const asset = await resolve(arg);
      if (!asset) return undefined;
      const file = await exported({ asset: asset.id });
      return file && exportFile(file.fileName, file.content, file.count, target);
    },
    'satchel.exportTagSnippets': async (arg?: AssetsNode | string, target?: vscode.Uri) => {
      const tag =
        typeof arg === 'string'
          ? arg
          : arg?.type === 'group' && arg.key !== ''
            ? arg.key
            : await vscode.window.showQuickPick(tagTexts(s), {
                placeHolder: 'Export the snippets with this tag to a .code-snippets file',
              });
      if (!tag) return undefined;
      const file = await exported({ tag });
      return file && exportFile(file.fileName, file.content, file.count, target);
    },
  };
}

/**
 * Proposes a template for the selection and shows it beside the code (placeholders marked,
 * editable) with Save and Discard above it; Save asks for a name and a prefix and saves it as
 * snippet syntax. Returns the saved asset.
 */
async function saveSelectionAsTemplate(s: Services, answers: TemplateAnswers): Promise<Asset | undefined> {
  const editor = vscode.window.activeTextEditor;
  const selection = editor?.selections.find((candidate) => !candidate.isEmpty);
  if (!editor || !selection) {
    void vscode.window.showWarningMessage('Select the code to make a snippet template of first.');
    return undefined;
  }
  const text = editor.document.getText(selection);
  const language = fromVscodeLanguage(editor.document.languageId);
  const template = templateFromSelection(text, language);
  const count = template.stops.length;
  const title = `${languageName(language)} template, ${count === 0 ? 'no placeholder' : `${count} placeholder${count === 1 ? '' : 's'}`}`;
  const decision = await s.templates.show(template.body, title, describeStops(template.stops));
  if (decision.action === 'discard') return undefined;
  const name = answers.name ?? (await ask({ step: 1, value: suggestName(text), prompt: 'Name of the snippet template' }));
  if (name === undefined) return undefined;
  const prefix = answers.prefix ?? (await ask({ step: 2, value: prefixFromName(name), prompt: 'Prefix: typing it offers the template in IntelliSense (leave empty for none)', allowEmpty: true }));
  if (prefix === undefined) return undefined;
  return saveTemplate(s, { body: decision.body, name: name.trim() || suggestName(text), prefix: prefix.trim(), language });
}

async function saveTemplate(s: Services, template: { body: string; name: string; prefix: string; language: string | undefined }): Promise<Asset> {
  const { client } = connected(s.server);
  const application = await s.server.application();
  const prefixes = template.prefix ? [template.prefix] : [];
  const asset = await client.assets.createFromText({ text: template.body, application, name: template.name, tags: prefixes, ...(template.language ? { language: template.language } : {}) });
  try {
    await client.snippets.setInfo(asset.id, { syntax: true, prefixes });
  } catch (error) {
    // A template saved as plain code would insert its `${1:…}` as text: none is better than that.
    await client.assets.delete(asset.id).catch(() => undefined);
    throw error;
  }
  void s.assets.reload(asset.id);
  void vscode.window.setStatusBarMessage(`$(check) Saved snippet template ${template.name}${template.prefix ? ` (prefix ${template.prefix})` : ''}`, 4_000);
  return asset;
}

/** One of the two questions after Save. */
function ask(options: { step: number; value: string; prompt: string; allowEmpty?: boolean }): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = 'Save Selection as Snippet Template';
  box.step = options.step;
  box.totalSteps = 2;
  box.value = options.value;
  box.prompt = options.prompt;
  return new Promise((resolve) => {
    box.onDidAccept(() => {
      if (!options.allowEmpty && box.value.trim() === '') {
        box.validationMessage = 'Give it a name.';
        return;
      }
      resolve(box.value);
      box.hide();
    });
    box.onDidHide(() => {
      resolve(undefined);
      box.dispose();
    });
    box.show();
  });
}

/** What the preview says of its placeholders (each `$n`, its default, how often it appears). */
function describeStops(stops: readonly TemplateStop[]): string {
  if (stops.length === 0) return 'No placeholder proposed: nothing repeats and there is no string';
  const listed = stops.map((stop) => `$${stop.index} ${stop.kind === 'string' ? `"${stop.placeholder}"` : stop.placeholder}${stop.occurrences > 1 ? ` ×${stop.occurrences}` : ''}`);
  return `${stops.length} placeholder${stops.length === 1 ? '' : 's'}: ${listed.join(', ')}`;
}

/** Every tag of the library, as the host counts them (the view holds only the groups the user opened). */
async function tagTexts(s: Services): Promise<string[]> {
  const { groups } = await connected(s.server).client.snippets.groups('tag');
  return groups.flatMap((group) => (group.key && group.label ? [group.label] : [])).sort();
}
