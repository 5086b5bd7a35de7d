/** The connector: how an editor registers itself and reports copies, reactions and uses of assets. */
import type { Context, Reaction, SeededConnectorCreation, Suggestion } from '../core/wire.ts';
import { seg, type HttpTransport } from './http.ts';

/** What was done with a saved asset, in the wire's snake_case identifier-description pairs. */
export type TrackedUse = 'copied' | 'inserted' | 'referenced';

export class ConnectorClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  connect(application: { name: string; version: string; platform: string }): Promise<Context> {
    return this.http.json('POST', '/connect', { body: { application } });
  }

  suggest(application: string, text: string, language?: string): Promise<Suggestion> {
    const body = {
      asset: { format: { fragment: { string: { raw: text } }, ...(language ? { classification: { specific: language } } : {}) } },
    } as SeededConnectorCreation;
    return this.http.json('POST', `/${seg(application)}/suggestion`, { body });
  }

  /** Returns the new asset's id after a save, else the server's acknowledgement. */
  react(application: string, reaction: Reaction): Promise<string> {
    return this.http.text('POST', `/${seg(application)}/reaction`, { body: reaction });
  }

  intention(application: string, text: string): Promise<string> {
    return this.http.text('POST', `/${seg(application)}/intention`, {
      body: { format: { fragment: { string: { raw: text } } } },
    });
  }

  track(application: string, asset: string, use: TrackedUse): Promise<string> {
    const pair =
      use === 'copied'
        ? { asset_format_copied: 'an_asset_preview_format_was_copied' }
        : use === 'inserted'
          ? { asset_referenced: 'an_asset_was_referenced_by_the_user' }
          : { suggested_asset_referenced: 'a_suggested_asset_was_referenced_by_the_user' };
    return this.http.text('POST', `/${seg(application)}/track`, {
      body: { asset: { asset: { id: asset }, identifier_description_pair: pair } },
    });
  }
}
