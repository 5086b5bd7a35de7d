/**
 * The scripted day, run inside VS Code's extension host (the test module the smoke-test driver
 * loads, `run()`), once with Satchel installed and once without it. The editor actions are the same
 * in both runs (typing a line with a completion request per keystroke, selecting and copying code,
 * selecting code to save); the phases that are Satchel's alone (sync, import, back-fill, history)
 * wait in the run without it as long as they took with it, so both floors cover the same time.
 * Each phase's figures are printed as `[day] …` lines and the whole as one `[[day-result:…]]` line.
 */
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DaySampler, settledMemory } from './sampler.ts';
import { PhaseProfiler } from './phaseProfiler.ts';
import { EXTENSION_ID, type ClockAnchor, type DayConfig, type DayResult } from './dayTypes.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { SyncSummary } from '../../../src/client/sync.ts';
import type { ImportSummary } from '../../../src/client/imports.ts';
import { readPortFile } from '../../../src/hosting/portFile.ts';
import { ENCODER_ID } from '../../../src/core/models/catalog.ts';

const VS_CODE_LANGUAGE_SUPPORT = ['vscode.typescript-language-features', 'vscode.json-language-features', 'vscode.configuration-editing'];
const KEYSTROKE_MS = 50;
const LINE = 'response = fetch_with_retry(endpoint, attempts=3, backoff_seconds=0.5)';
const COPIES = 50;
const SAVES = 20;
const EDITS = 200;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const atLeast = async <T>(ms: number, work: Promise<T>): Promise<T> => (await Promise.all([work, sleep(ms)]))[0];

/** A distinct block of Python per copy or save, so none is a duplicate of another. */
function block(kind: string, i: number): string {
  return `def ${kind}_rows_${i}(rows, limit=${i + 3}):\n    picked = [row for row in rows if row.get("score", 0) > ${i % 7}]\n    return sorted(picked, key=lambda row: row["${kind}_${i}"])[:limit]\n`;
}

async function openDocument(folder: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(join(folder, 'day.py')));
  return vscode.window.showTextDocument(document);
}

/** Appends text at the end of the document and returns the range it took. */
async function append(editor: vscode.TextEditor, text: string): Promise<vscode.Range> {
  const start = editor.document.positionAt(editor.document.getText().length);
  await editor.edit((edit) => edit.insert(start, text));
  return new vscode.Range(start, editor.document.positionAt(editor.document.getText().length));
}

const activeExtensions = (): Set<string> => new Set(vscode.extensions.all.filter((extension) => extension.isActive).map((extension) => extension.id));

/** VS Code's extension host keeps its performance marks on globalThis (vs/base/common/performance). */
function extensionLoadMarks(): Array<{ name: string; startTime: number }> {
  const holder: unknown = Reflect.get(globalThis, 'MonacoPerformanceMarks');
  const getMarks: unknown = holder && typeof holder === 'object' ? Reflect.get(holder, 'getMarks') : undefined;
  if (typeof getMarks !== 'function') return [];
  const marks: unknown = getMarks.call(holder);
  if (!Array.isArray(marks)) return [];
  return marks.flatMap((mark: unknown) =>
    mark && typeof mark === 'object' && 'name' in mark && typeof mark.name === 'string' && 'startTime' in mark && typeof mark.startTime === 'number' && /(LoadExtensionCode|ActivateExtension)\//.test(mark.name) ? [{ name: mark.name, startTime: mark.startTime }] : [],
  );
}

/**
 * The marks are `Date.now()` (whole milliseconds); V8's profiles count microseconds on the monotonic
 * clock `process.hrtime` reads. Read the latter right as the former ticks, so the two agree to well
 * under a millisecond.
 */
function clockAnchor(): ClockAnchor {
  const start = Date.now();
  let epochMs = start;
  while (epochMs === start) epochMs = Date.now();
  return { epochMs, monotonicUs: Number(process.hrtime.bigint() / 1000n) };
}

/**
 * Runs a phase and names the other extensions VS Code activated meanwhile: the editor's own start
 * (JSON, TypeScript and settings support, activated when the settings file is read) lands in one
 * phase or another from run to run and holds the extension host 100–200 ms when it does, which
 * would otherwise read as Satchel's.
 */
async function noteActivations(run: () => Promise<string | void>): Promise<string | void> {
  const before = activeExtensions();
  const note = await run();
  const activated = [...activeExtensions()].filter((id) => !before.has(id) && id !== EXTENSION_ID);
  if (!activated.length) return note;
  return [note, `VS Code activated ${activated.join(', ')} meanwhile`].filter(Boolean).join('; ');
}

export async function run(): Promise<void> {
  const config = JSON.parse(readFileSync(process.env.SATCHEL_DAY_CONFIG!, 'utf8')) as DayConfig;
  const started = performance.now();
  let api: SatchelExtension | undefined;
  const dataHostPid = (): number | undefined => (config.withSatchel ? readPortFile(config.dataDir)?.pid : undefined);
  const sampler = new DaySampler(dataHostPid);
  const profiler = config.profileDir ? new PhaseProfiler(join(config.profileDir, config.withSatchel ? 'with' : 'without')) : undefined;
  const phase = (name: string, run: () => Promise<string | void>): Promise<void> => {
    const measured = profiler ? () => profiler.around(name, run) : run;
    return sampler.phase(name, () => noteActivations(measured));
  };
  const rssAtStart = Math.round(process.memoryUsage().rss / 2 ** 20);
  const waitAsWith = (phase: string) => sleep(config.durations?.[phase] ?? 0);
  const result: DayResult = { withSatchel: config.withSatchel, size: config.size, extHostUptimeAtDriverS: Math.round(process.uptime() * 10) / 10, rssAtDriverStartMb: rssAtStart, phases: sampler.phases, whole: { p50: 0, p99: 0, max: 0 } };

  /** The whole day's figures, then VS Code's activation figure (the runner reads it). */
  const finish = async (): Promise<void> => {
    result.whole = sampler.whole();
    result.dataHost = dataHostPid();
    sampler.dispose();
    // Not after the start alone: the collection sets V8's --expose-gc, and a code cache Satchel writes
    // after that carries the changed flags, which the next start (--starts) would reject.
    if (!config.startOnly) result.settled = settledMemory();
    profiler?.dispose();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    console.log(`[[day-result:${JSON.stringify(result)}]]`);
    // The runner reads VS Code's own activation figure from the Running Extensions editor.
    // Without Satchel only in a start-only run: its control extension's figure (run.ts) is what is read then.
    if (config.withSatchel || config.startOnly) {
      await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions');
      console.log('[[day-runtime-extensions]]');
      // The runner reads the editor while this module still runs (the window closes when it returns).
      await sleep(17_000);
    }
  };

  // VS Code activates its TypeScript, JSON and settings support (100–200 ms of compiling their
  // bundles) a second or two into the window's life, whatever Satchel does: left to itself that lands
  // in a different phase in each run and reads as Satchel's there. Both runs activate them here.
  await phase('VS Code\'s language support (both runs)', async () => {
    const activated = await Promise.all(
      VS_CODE_LANGUAGE_SUPPORT.map(async (id) => {
        const extension = vscode.extensions.getExtension(id);
        if (!extension) return `${id} missing`;
        const was = extension.isActive;
        await extension.activate();
        return was ? `${id} already active` : `${id} activated`;
      }),
    );
    return activated.join(', ');
  });

  await phase('start', async () => {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID);
    if (!config.withSatchel) {
      if (extension) throw new Error('Satchel is installed in the run without it');
      return waitAsWith('start');
    }
    if (!extension) throw new Error('Satchel is not installed');
    api = await extension.activate();
    while (!api.server.connection) await sleep(20);
    return `connected ${Math.round(performance.now() - started)} ms after the driver started (extension host up ${result.extHostUptimeAtDriverS} s before it)`;
  });
  result.activation = api?.activation ? { ...api.activation } : undefined;
  result.loadMarks = extensionLoadMarks();
  result.clock = clockAnchor();
  if (config.startOnly) return finish();
  // A phase of its own, so that nothing the day does falls between phases unmeasured (the whole day's
  // max once came from here, in no phase).
  const opened: { editor?: vscode.TextEditor } = {};
  await phase('settings and document', async () => {
    if (api) {
      // Machine-scoped settings: a remote window reads them from here, not from the user's settings file.
      const sync = vscode.workspace.getConfiguration('satchel.sync');
      await sync.update('intervalMinutes', 0, vscode.ConfigurationTarget.Global);
      await sync.update('onFocus', false, vscode.ConfigurationTarget.Global);
      await sync.update('remote', config.remote, vscode.ConfigurationTarget.Global);
    } else {
      // The same number of writes to the user's settings, of settings that change nothing the day
      // does: the extension host's own handling of a settings change is in both runs.
      const editor = vscode.workspace.getConfiguration();
      await editor.update('editor.wordWrapColumn', 81, vscode.ConfigurationTarget.Global);
      await editor.update('diffEditor.maxFileSize', 51, vscode.ConfigurationTarget.Global);
      await editor.update('search.maxResults', 20_001, vscode.ConfigurationTarget.Global);
    }
    opened.editor = await openDocument(config.workspace);
  });
  const editor = opened.editor;
  if (!editor) throw new Error('the day\'s document did not open');
  const client = api?.server.connection?.client;

  await phase('first search', async () => {
    if (!client) return waitAsWith('first search');
    const found = await client.assets.search('retry backoff');
    return `${found.iterable.length} results`;
  });

  await phase('completion on each keystroke', async () => {
    await append(editor, '\n');
    let items = 0;
    for (const char of LINE) {
      const range = await append(editor, char);
      const list = await atLeast(KEYSTROKE_MS, Promise.resolve(vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, range.end)));
      items += list?.items.length ?? 0;
    }
    return `${LINE.length} keystrokes, ${items} items offered`;
  });

  await phase(`${COPIES} copies (connector)`, async () => {
    // The editor's copy reaches the connector through prepareDocumentPaste when the workbench runs
    // the paste providers for it; the copies it did not reach are handed to the connector as that hook does.
    let heard = 0;
    const connector = api?.connector;
    const prepare = connector?.prepareDocumentPaste.bind(connector);
    if (connector && prepare) connector.prepareDocumentPaste = (document, ranges) => (heard++, prepare(document, ranges));
    let direct = 0;
    for (let i = 0; i < COPIES; i++) {
      const range = await append(editor, `\n${block('copied', i)}`);
      editor.selection = new vscode.Selection(range.start, range.end);
      const before = heard;
      await atLeast(100, (async () => {
        // A headless browser may refuse the clipboard; the copy is not waited for past 2 s.
        await Promise.race([Promise.resolve(vscode.commands.executeCommand('editor.action.clipboardCopyAction')).catch(() => undefined), sleep(2_000)]);
        // The workbench asks the providers after the copy command returns: give it a moment.
        for (let waited = 0; connector && heard === before && waited < 500; waited += 25) await sleep(25);
        if (connector && heard === before) {
          direct++;
          await connector.handleCopy(editor.document.getText(range), editor.document.languageId);
        }
      })());
    }
    // Back to the class's own method (the wrapper was an own property of this instance).
    if (connector) Reflect.deleteProperty(connector, 'prepareDocumentPaste');
    return connector ? `${COPIES - direct} reached the connector through the editor's copy, ${direct} handed to it (handleCopy)` : undefined;
  });

  await phase(`${SAVES} saves (Save Selection as Asset)`, async () => {
    for (let i = 0; i < SAVES; i++) {
      const range = await append(editor, `\n${block('saved', i)}`);
      editor.selection = new vscode.Selection(range.start, range.end);
      await atLeast(250, Promise.resolve(api ? vscode.commands.executeCommand('satchel.saveSelection') : undefined));
    }
  });

  await phase('first sync', async () => {
    if (!api) return waitAsWith('first sync');
    const summary = await vscode.commands.executeCommand<SyncSummary | undefined>('satchel.sync.now');
    return `sent ${summary?.sent ?? '?'} to a local bare repository`;
  });

  await phase('10k import', async () => {
    if (!api) return waitAsWith('10k import');
    // A folder of VS Code snippet files, as the Explorer passes it.
    const folder = vscode.Uri.file(config.importFolder);
    const summary = await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', folder, [folder]);
    return `imported ${summary?.imported}, duplicates ${summary?.duplicates}, failed ${summary?.failed}`;
  });

  await phase('back-fill (built-in encoder)', async () => {
    if (!api || !client) return waitAsWith('back-fill (built-in encoder)');
    const loadStarted = performance.now();
    await vscode.commands.executeCommand('satchel.model.load', ENCODER_ID);
    const loadedMs = Math.round(performance.now() - loadStarted);
    const deadline = performance.now() + config.backfillSeconds * 1000;
    let status = await client.models.semanticStatus();
    while (status.state === 'indexing' && performance.now() < deadline) {
      await sleep(1000);
      status = await client.models.semanticStatus();
    }
    const seconds = (performance.now() - loadStarted - loadedMs) / 1000;
    const stopped = status.state === 'indexing' ? (await client.models.cancelSemanticBackfill()).status : status;
    await vscode.commands.executeCommand('satchel.model.unload', ENCODER_ID);
    return `encoder loaded in ${loadedMs} ms; ${stopped.done} of ${stopped.total} snippets embedded in ${seconds.toFixed(0)} s (${(stopped.done / seconds).toFixed(1)}/s), state ${status.state}${status.state === 'indexing' ? ', then cancelled and unloaded' : ''}`;
  });

  await phase('history compaction', async () => {
    if (!client) return waitAsWith('history compaction');
    // Each edit appends a revision; the compactor looks at each edited snippet 2 s later, on the data host.
    const found = await client.assets.search('parse');
    const ids = found.iterable.map((hit) => hit.identifier).filter((id): id is string => typeof id === 'string');
    let edits = 0;
    for (let i = 0; i < EDITS && ids.length > 0; i++) {
      await client.history.edit(ids[i % ids.length]!, { content: `# edit ${i}\n${block('edited', i)}` });
      edits++;
    }
    await sleep(8_000);
    return `${edits} edits over ${Math.min(ids.length, EDITS)} snippets, then 8 s for the compactor`;
  });

  await phase('settle 10 s', () => sleep(10_000));
  await finish();
}
