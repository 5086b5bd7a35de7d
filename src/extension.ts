/**
 * Entry point (loaded by extensionLoader.ts). Activation only builds the UI and returns; the data
 * host is found or started right after, in its own process, and a failure is shown with "Show Log"
 * / "Retry", never thrown at the user.
 */
import * as vscode from 'vscode';
import { SatchelExtension } from './extension/satchelExtension.ts';
import { join } from 'node:path';
import { HostSupervisor } from './hosting/hostSupervisor.ts';
import type { DataHostCommand } from './hosting/hostCommand.ts';
import type { BundleLoad } from './extensionLoader.ts';
import { performance } from 'node:perf_hooks';
import { plus, readThreadClock, since } from './extension/threadClock.ts';

let extension: SatchelExtension | undefined;
let bundle: BundleLoad | undefined;

/** Told by the loader (extensionLoader.ts) how this bundle was compiled and run. */
export function bundleLoaded(load: BundleLoad): void {
  bundle = load;
}

export function activate(context: vscode.ExtensionContext): SatchelExtension | undefined {
  const activating = performance.now();
  const clockAtActivate = readThreadClock();
  try {
    const command = hostCommand(context.extensionPath);
    const version = String(context.extension.packageJSON.version ?? '0.0.0');
    // Agents that start only local servers (Claude Desktop) run the bridge with the same Node and script.
    extension = new SatchelExtension(
      version,
      (options) => new HostSupervisor({ ...options, command, version }),
      context.extension.extensionKind,
      command,
      contributedCommands(context.extension.packageJSON),
    );
    const activateMs = performance.now() - activating;
    const { loading, ...load } = bundle ?? {};
    // The two halves of VS Code's figure that are Satchel's: loading its code, and activate(). Not the
    // time between them, when the extension host waits for the extension's context and runs others.
    extension.activation = { ...load, activateMs, ...(loading ? { own: plus(loading, since(clockAtActivate)) } : {}), steps: extension.activationSteps, stepsOnCore: extension.activationStepsOnCore };
    extension.log.info(activationLine(extension.activation));
  } catch (error) {
    void reportActivationFailure(context, error);
    return undefined;
  }
  const started = extension;
  context.subscriptions.push({ dispose: () => void started.shutdown() });
  setImmediate(() => void started.start());
  return started;
}

function activationLine(figures: NonNullable<SatchelExtension['activation']>): string {
  const ms = (value: number | undefined): string => (value === undefined ? '?' : `${value.toFixed(1)} ms`);
  const steps = Object.entries(figures.steps ?? {}).map(([name, value]) => `${name} ${ms(value)}`).join(', ');
  const own = figures.own ? `; loading and activating took ${ms(figures.own.wallMs)}, ${ms(figures.own.cpuMs)} of it on a core, ${ms(figures.own.waitedMs)} waiting for one` : '';
  return `Activated in ${ms(figures.activateMs)} (${steps}); the bundle compiled in ${ms(figures.compileMs)} (code cache ${figures.codeCache ?? 'not used'}) and ran in ${ms(figures.runMs)}${own}.`;
}

/** The command ids the manifest (package.json, read by VS Code) contributes. */
function contributedCommands(manifest: unknown): string[] {
  const contributes: unknown = manifest && typeof manifest === 'object' && 'contributes' in manifest ? manifest.contributes : undefined;
  const commands: unknown = contributes && typeof contributes === 'object' && 'commands' in contributes ? contributes.commands : undefined;
  if (!Array.isArray(commands)) return [];
  return commands.flatMap((entry: unknown) => (entry && typeof entry === 'object' && 'command' in entry && typeof entry.command === 'string' ? [entry.command] : []));
}

/**
 * The data host runs on the Node VS Code ships: the extension host's own executable, which is
 * Electron in desktop VS Code (ELECTRON_RUN_AS_NODE=1 makes it plain Node, as language servers are
 * started) and Node itself in a remote or browser window's server.
 */
function hostCommand(extensionPath: string): DataHostCommand {
  return { execPath: process.execPath, script: join(extensionPath, 'dist', 'cli.cjs'), env: { ELECTRON_RUN_AS_NODE: '1' } };
}

export async function deactivate(): Promise<void> {
  const current = extension;
  extension = undefined;
  await current?.shutdown();
}

async function reportActivationFailure(context: vscode.ExtensionContext, error: unknown): Promise<void> {
  const channel = vscode.window.createOutputChannel('Satchel', { log: true });
  context.subscriptions.push(channel);
  channel.error(`Activation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const choice = await vscode.window.showErrorMessage(`Satchel failed to start: ${(error as Error)?.message ?? error}`, 'Show Log', 'Retry');
  if (choice === 'Show Log') channel.show();
  else if (choice === 'Retry') activate(context);
}
