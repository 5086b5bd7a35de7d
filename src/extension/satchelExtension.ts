/**
 * Composition root in VS Code: builds the log, the server controller, the views, the connector and
 * the commands, each owned here. The server starts after activation has returned.
 */
import * as vscode from 'vscode';
import { Owner } from '../core/lifecycle.ts';
import { Log } from './log.ts';
import { AGENT_REVIEW_KEY, readSettings, SECTION, SERVER_KEYS, type Settings } from './settings.ts';
import { ServerController } from './serverController.ts';
import { StatusBar } from './statusBar.ts';
import { SatchelAgents } from './agents/satchelAgents.ts';
import { CopyConnector } from './copyConnector.ts';
import { SnippetFileSystem } from './editing/snippetFileSystem.ts';
import { AssetsView } from './views/assetsView.ts';
import { AssetsDragAndDrop } from './views/assetsDragAndDrop.ts';
import { ConversationsView } from './views/conversationsView.ts';
import { ModelsView } from './views/modelsView.ts';
import { Commands } from './commands/index.ts';
import { SnippetCompletions } from './completion/snippetCompletions.ts';
import { TemplatePreviews } from './templatePreview.ts';
import { SnippetHistory } from './history/snippetHistory.ts';
import { AgentConnections } from './agents/agentConnections.ts';
import { FIRST_PORT, mcpUrl, stdioBridge, type SatchelRuntime } from '../core/connect/satchelEndpoint.ts';
import { SatchelSync } from './sync/satchelSync.ts';
import { whenCountChanges } from './trashPages.ts';
import type { Role, StartHosting } from '../hosting/hosting.ts';
import { explainClientOnly, explainHostingFailure, type HostingAction } from './hostingFailure.ts';
import { RemoteNotices } from './remoteNotice.ts';
import { SecretMarks } from './secrets/secretMarks.ts';
import { SecretsStatus } from './secrets/secretsStatus.ts';
import { assetSecrets } from './secrets/snippetSecrets.ts';
import { between, readCpuClock, type ThreadClock } from './threadClock.ts';

/** What activation cost (extensionLoader.ts and extension.ts measure it; docs/performance.md). */
export interface ActivationFigures {
  readonly compileMs?: number;
  readonly runMs?: number;
  readonly codeCache?: string;
  readonly activateMs: number;
  /** Loading the bundle plus activate(), on the thread's clocks: wall time, time on a core, time waiting for one (threadClock.ts). */
  readonly own?: ThreadClock;
  /** Where activate() spent its time: ms per part of the composition, in order (the log and bench:day read it). */
  readonly steps?: Readonly<Record<string, number>>;
  /** The same parts on the thread's CPU clock (threadClock.ts): on a busy machine a part's wall time is mostly a wait for a core. */
  readonly stepsOnCore?: Readonly<Record<string, number>>;
}

/** Times the parts of a synchronous composition: each `step(name)` ends the part named. */
function stepTimer(): { step(name: string): void; readonly steps: Record<string, number>; readonly onCore: Record<string, number> } {
  // One reading a step, of the clocks that need no file read: this runs inside activation.
  let last = readCpuClock();
  const steps: Record<string, number> = {};
  const onCore: Record<string, number> = {};
  return {
    steps,
    onCore,
    step(name) {
      const now = readCpuClock();
      const part = between(last, now);
      last = now;
      steps[name] = part.wallMs;
      if (part.cpuMs !== undefined) onCore[name] = part.cpuMs;
    },
  };
}

export class SatchelExtension extends Owner {
  readonly log = this._register(new Log());
  readonly server: ServerController;
  readonly statusBar: StatusBar;
  readonly connector: CopyConnector;
  /** The editable `satchel:` documents of snippets. */
  readonly documents: SnippetFileSystem;
  readonly assets: AssetsView;
  /** Snippets dragged out of the Assets view into editors, and files and text dropped on it. */
  readonly dragAndDrop: AssetsDragAndDrop;
  readonly conversations: ConversationsView;
  readonly models: ModelsView;
  readonly commands: Commands;
  /** Show History and Restore on snippets. */
  readonly history: SnippetHistory;
  readonly agents: SatchelAgents;
  /** Saved snippets in IntelliSense. */
  readonly completions: SnippetCompletions;
  /** Sync through git: Sync Now, the interval and focus syncs, the status bar item, the Conflicts view. */
  readonly sync: SatchelSync;
  /** Connect an Agent… and the agents' entries this install wrote. */
  readonly agentConnections: AgentConnections;
  /** Says so when the library is on a remote machine and empty. */
  readonly remote: RemoteNotices;
  /** Secrets the host found, marked in open snippet documents (highlight, warning, quick fixes). */
  readonly secretMarks: SecretMarks;
  /** How many snippets hold secrets, in the status bar. */
  readonly secretsStatus: SecretsStatus;
  /** Set by the entry point once activation returns. */
  activation: ActivationFigures | undefined;
  /** The constructor's parts, ms (ActivationFigures.steps and stepsOnCore). */
  readonly activationSteps: Readonly<Record<string, number>>;
  readonly activationStepsOnCore: Readonly<Record<string, number>>;
  private settings: Settings;
  private readonly explained = new WeakSet<Error>();
  /** Resolves with the first role of the current start. */
  started: Promise<Role> = Promise.resolve({ kind: 'starting' });

  /**
   * `extensionKind`: which side of a remote window this extension host is on. `runtime`: the Node
   * and CLI script the host runs on, which agents that start only local servers run as the bridge.
   * `commandIds`: the commands the manifest contributes, registered here.
   */
  constructor(version: string, startHosting: StartHosting, extensionKind: vscode.ExtensionKind, runtime: SatchelRuntime, commandIds: readonly string[]) {
    super();
    const timer = stepTimer();
    this.activationSteps = timer.steps;
    this.activationStepsOnCore = timer.onCore;
    this.settings = readSettings(vscode.workspace.getConfiguration(SECTION));
    this.server = this._register(new ServerController(this.log, () => this.settings, version, startHosting));
    this.statusBar = this._register(new StatusBar(this.server));
    timer.step('server and status bar');
    this.connector = this._register(new CopyConnector(this.server, this.statusBar, this.log, () => this.settings));
    timer.step('copy connector');
    this.dragAndDrop = this._register(
      new AssetsDragAndDrop({
        server: this.server,
        lookup: (id) => this.assets.asset(id),
        inserted: (id) => void this.connector.track(id, 'inserted'),
      }),
    );
    this.assets = this._register(new AssetsView(this.server, this.connector, this.log, this.dragAndDrop));
    this._register(this.dragAndDrop.onDidSave((asset) => void this.assets.reload(asset.id)));
    this.documents = this._register(new SnippetFileSystem(this.server, this.assets.onDidChangeAssets));
    const secretsOf = (id: string) => {
      const asset = this.assets.asset(id);
      return asset ? assetSecrets(asset) : [];
    };
    this.secretMarks = this._register(new SecretMarks(secretsOf, this.assets.onDidChangeAssets));
    this.secretsStatus = this._register(new SecretsStatus(this.assets, this.server, this.log));
    this.conversations = this._register(new ConversationsView(this.server, this.log));
    // A conversation deleted or restored by any tool changes the Trash node of the Assets view.
    this._register(whenCountChanges(this.conversations.onDidChangeItems, () => this.conversations.conversations.length, () => this.assets.trash.invalidate()));
    this.models = this._register(new ModelsView(this.server, this.log));
    timer.step('views');
    const templates = this._register(new TemplatePreviews());
    this.history = this._register(
      new SnippetHistory({
        server: this.server,
        assetsChanged: this.assets.onDidChangeAssets,
        restored: (id) => {
          void this.assets.reload(id);
          this.documents.changed(id);
        },
      }),
    );
    this.sync = this._register(new SatchelSync(this.server, this.log));
    timer.step('history and sync');
    this.agentConnections = this._register(new AgentConnections(() => stdioBridge(runtime, { dataDir: this.settings.dataDir })));
    this.commands = this._register(
      new Commands(
        {
          server: this.server,
          assets: this.assets,
          conversations: this.conversations,
          models: this.models,
          connector: this.connector,
          documents: this.documents,
          templates,
          log: this.log,
          history: this.history,
          sync: this.sync,
          agentConnections: this.agentConnections,
          secretsStatus: this.secretsStatus,
        },
        commandIds,
      ),
    );
    timer.step('commands');
    this.agents = this._register(new SatchelAgents(this.server, version, () => this.settings, this.log));
    timer.step('agents');
    this.remote = this._register(
      new RemoteNotices({
        server: this.server,
        settings: () => this.settings,
        log: this.log,
        extensionKind,
        contents: [this.assets, this.conversations].map((view) => ({ loaded: () => view.loaded, count: () => view.count })),
      }),
    );
    this.completions = this._register(new SnippetCompletions(this.server, () => this.settings, this.log, (id) => void this.connector.track(id, 'inserted')));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        this.settings = readSettings(vscode.workspace.getConfiguration(SECTION));
        this.completions.update();
        if (event.affectsConfiguration(AGENT_REVIEW_KEY)) void this.agents.review.changed();
        if (SERVER_KEYS.some((key) => event.affectsConfiguration(key))) void this.restart();
      }),
    );
    this._register(this.server.onDidChangeRole((role) => this.onRole(role)));
    timer.step('completions and the rest');
  }

  start(): Promise<Role> {
    this.started = this.server.start();
    // An update moved the extension's folder: Claude Desktop's entry is moved to this version's bridge.
    // Once the data host has started, not during activation: the connect code is a bundle of its own.
    const refresh = (): void => void this.agentConnections.refreshBridges(mcpUrl(FIRST_PORT), (line) => this.log.info(line));
    this.started.then(refresh, refresh);
    return this.started;
  }

  /** After a change of the server's settings: the data host starts again with them. */
  private restart(): Promise<Role> {
    this.started = this.server.restart();
    return this.started;
  }

  private onRole(role: Role): void {
    void vscode.commands.executeCommand('setContext', 'satchel.failed', role.kind === 'failed');
    // Once per error: a client that loses its server goes back to the same `failed` role.
    if (role.kind === 'failed' && !this.explained.has(role.error)) {
      this.explained.add(role.error);
      const { message, actions } = explainHostingFailure(role.error, this.settings.dataDir);
      void vscode.window.showErrorMessage(message, ...actions).then((choice) => this.act(choice));
    } else if (role.kind === 'client' && role.cannotHost && !this.explained.has(role.cannotHost)) {
      this.explained.add(role.cannotHost);
      void vscode.window.showWarningMessage(explainClientOnly(role.cannotHost, role.url), 'Show Log').then((choice) => this.act(choice));
    }
  }

  private act(choice: HostingAction | undefined): void {
    if (choice === 'Show Log') this.log.show();
    else if (choice === 'Retry') void this.start();
    else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.dataDirectory`);
  }

  /** Closes the server cleanly (the lock goes to another window). */
  async shutdown(): Promise<void> {
    await this.server.stop();
    this.dispose();
  }
}
