/** Shared scaffolding for the assets core tests: a store with the asset service and no server. */
import { rmSync } from 'node:fs';
import { StoreContext } from '../../src/core/context.ts';
import { allMigrations } from '../../src/core/satchel.ts';
import { AssetService, type LinkedConversations } from '../../src/core/assets/assetService.ts';
import type { ClassifyOptions, LanguageClassifier, LanguageHints } from '../../src/core/classify/languageClassifier.ts';
import type { ClassificationSpecific, Seed } from '../../src/core/piecesTypes.ts';
import { tempDir } from './helpers.ts';
import { RevisionLog } from '../../src/core/history/revisionLog.ts';

export interface AssetStore {
  readonly context: StoreContext;
  readonly assets: AssetService;
  readonly dataDir: string;
  /** How many times the classifier was asked. */
  classified: number;
  /** The hints each ask carried. */
  readonly hints: (LanguageHints | undefined)[];
  close(): void;
}

/** A store with an asset service whose classifier always answers `language` (and `conversations` rendering its linked conversations). */
export function openAssetStore(language = 'ts', conversations?: LinkedConversations): AssetStore {
  const dataDir = tempDir('satchel-assets-');
  const context = StoreContext.open(dataDir, allMigrations);
  const store: AssetStore = {
    context,
    dataDir,
    classified: 0,
    hints: [],
    assets: undefined as unknown as AssetService,
    close() {
      store.assets.dispose();
      context.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const classifier = {
    async classify(_text: string, options?: ClassifyOptions) {
      store.classified++;
      store.hints.push(options?.hints);
      return { specific: language as ClassificationSpecific, confidence: 1, source: 'model' as const };
    },
  } as unknown as LanguageClassifier;
  (store as { assets: AssetService }).assets = new AssetService(context, classifier, { log: new RevisionLog(context.database) }, [], conversations);
  return store;
}

export function codeSeed(raw: string, name?: string, extra: { tags?: string[]; pseudo?: boolean; ext?: string } = {}): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: { id: 'test-app', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' },
      format: { fragment: { string: { raw }, ...(extra.ext ? { metadata: { ext: extra.ext as ClassificationSpecific } } : {}) } },
      ...(extra.pseudo !== undefined ? { pseudo: extra.pseudo } : {}),
      metadata: {
        ...(name !== undefined ? { name } : {}),
        ...(extra.tags ? { tags: extra.tags.map((text) => ({ text })) } : {}),
      },
    },
  };
}
