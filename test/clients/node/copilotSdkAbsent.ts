/**
 * Put in place of `pieces-copilot-sdk` when bundling the example app's platform.config.ts, which
 * constructs its PiecesClient on import. The package's source is on neither the npm registry nor a
 * snapshot here, so the modules that call it (the copilot panel) are not run: any of its methods
 * the driven code reached would fail loudly rather than answer.
 */
export class PiecesClient {
  readonly baseUrl: string;
  constructor(options: { baseUrl: string }) {
    this.baseUrl = options.baseUrl;
  }
}
