import type { StoreContext } from '../context.ts';
import type { AssetService } from '../assets/assetService.ts';
import type { ApplicationService } from '../applications/applicationService.ts';

export interface ConnectorSettings {
  /** Snippets shorter than this (non-whitespace characters) never get a suggestion. */
  readonly minLength: number;
}

export const defaultConnectorSettings: ConnectorSettings = { minLength: 12 };

/** connect, suggest, react, intention, track, onboarded. */
export class ConnectorService {
  private readonly context: StoreContext;
  private readonly assets: AssetService;
  private readonly applications: ApplicationService;
  readonly settings: ConnectorSettings;

  constructor(context: StoreContext, assets: AssetService, applications: ApplicationService, settings: Partial<ConnectorSettings>) {
    this.context = context;
    this.assets = assets;
    this.applications = applications;
    this.settings = { ...defaultConnectorSettings, ...settings };
  }
}
