/** The connector: how an editor registers itself and reports copies, reactions and uses of assets. */
import type { Context, Suggestion } from '../core/piecesTypes.ts';
import type { SavedCheck } from '../core/connector/savedCheck.ts';
import type { BodyIn } from '../wire/operation.ts';
import { connectorOperations as op } from '../wire/connector.ts';
import type { HttpTransport } from './http.ts';

/** What was done with a saved asset, in the wire's snake_case identifier-description pairs. */
export type TrackedUse = 'copied' | 'inserted' | 'referenced';

export type ConnectorSeed = BodyIn<typeof op.suggestion>;
export type ConnectorReaction = BodyIn<typeof op.reaction>;

/** The seed of a copied snippet, as `suggest` sends it and a later `react` repeats it. */
export function snippetSeed(text: string, language?: string): ConnectorSeed {
  return { asset: { format: { fragment: { string: { raw: text } }, ...(language ? { classification: { specific: language } } : {}) } } };
}

export class ConnectorClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  connect(application: { name: string; version: string; platform: string }): Promise<Context> {
    return this.http.call(op.connect, { body: { application } });
  }

  suggest(application: string, text: string, language?: string): Promise<Suggestion> {
    return this.http.call(op.suggestion, { params: { application }, body: snippetSeed(text, language) });
  }

  /** Whether this code is already saved: a question, so no copy is recorded and asking twice answers the same. */
  saved(text: string): Promise<SavedCheck> {
    return this.http.call(op.saved, { body: { text } });
  }

  /** Returns the new asset's id after a save, else the server's acknowledgement. */
  react(application: string, reaction: ConnectorReaction): Promise<string> {
    return this.http.call(op.reaction, { params: { application }, body: reaction });
  }

  intention(application: string, text: string): Promise<string> {
    return this.http.call(op.intention, { params: { application }, body: { format: { fragment: { string: { raw: text } } } } });
  }

  track(application: string, asset: string, use: TrackedUse): Promise<string> {
    const pair =
      use === 'copied'
        ? { asset_format_copied: 'an_asset_preview_format_was_copied' }
        : use === 'inserted'
          ? { asset_referenced: 'an_asset_was_referenced_by_the_user' }
          : { suggested_asset_referenced: 'a_suggested_asset_was_referenced_by_the_user' };
    return this.http.call(op.track, { params: { application }, body: { asset: { asset: { id: asset }, identifier_description_pair: pair } } });
  }
}
