/**
 * What the secrets area reads of an asset (SecretSource, secretTypes.ts): its texts, an opening of its
 * code with the code's length (a large one's from its head, not its document), and whether its document
 * is large enough to be read by the secrets worker instead (then only its description is read here).
 */
import type { SecretOpening, SecretSource } from '../secrets/secretTypes.ts';
import type { SecretTexts } from '../secrets/detector.ts';
import type { AssetStore } from './assetStore.ts';
import type { Descriptions } from './descriptions.ts';

export class AssetSecretTexts implements SecretSource {
  private readonly store: AssetStore;
  private readonly descriptions: Descriptions;

  constructor(store: AssetStore, descriptions: Descriptions) {
    this.store = store;
    this.descriptions = descriptions;
  }

  /** The original format's text ('' when binary), the name and the description. */
  textsOf(id: string): SecretTexts | undefined {
    const content = this.store.originalText(id);
    if (content === undefined) return undefined;
    return this.withLabels(content.binary ? '' : content.text, content.name, id);
  }

  openingOf(id: string, chars: number): SecretOpening | undefined {
    const head = this.store.heads.of('id', [id], chars, true)[0];
    if (head === undefined) {
      // A suggested asset, or none: its document, read whole.
      const texts = this.textsOf(id);
      return texts === undefined ? undefined : { texts: { ...texts, code: texts.code.slice(0, chars) }, chars: texts.code.length };
    }
    return { texts: this.withLabels(head.binary ? '' : head.text, head.name, id), chars: head.binary ? 0 : head.chars };
  }

  /** Its description when its stored document is over `bytes`, else undefined: neither the document nor its head is read. */
  largeDocument(id: string, bytes: number): { description?: string } | undefined {
    if ((this.store.documentBytes(id) ?? 0) <= bytes) return undefined;
    const description = this.descriptions.of(id);
    return description ? { description } : {};
  }

  private withLabels(code: string, name: string | undefined, id: string): SecretTexts {
    const description = this.descriptions.of(id);
    return { code, ...(name ? { name } : {}), ...(description ? { description } : {}) };
  }
}
