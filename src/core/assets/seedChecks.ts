/**
 * What a Seed must be before any work is spent on it (the classifier, a transaction), checked in
 * this order: an asset, content, the content, tag, website and name limits, a known language.
 * prepareSeed (seeds.ts) runs it first; the JSON worker runs it too on a large body for create and
 * draft (server/jsonWorkerThread.ts), so a 15-million-byte seed is refused there with the same error
 * instead of crossing to the event loop to be refused.
 */
import type { SeedInput } from './inputs.ts';
import { InvalidInputError } from '../errors.ts';
import { checkContent, checkLimit, checkSeededTags, checkSeededWebsites } from '../limits.ts';
import { isKnownSpecific } from './specifics.ts';
import { contentOf, wellFormed } from './content.ts';

/** The seed's parts once it passed every check; throws InvalidInputError or LimitExceededError. */
export function checkedSeed(seed: SeedInput) {
  const seeded = seed.asset;
  if (!seeded) throw new InvalidInputError('A Seed needs an asset (Seed.asset with a format)');
  const format = seeded.format;
  const content = format ? contentOf(format) : undefined;
  if (!format || !content) {
    throw new InvalidInputError('The seed has no content: give asset.format.fragment.string.raw or asset.format.file.bytes.raw');
  }
  checkContent(content);
  checkSeededTags((seeded.metadata?.tags ?? []).map((tag) => tag.text));
  checkSeededWebsites(seeded.metadata?.websites ?? []);
  const fileName = format.file?.metadata?.name;
  const givenName = wellFormed(seeded.metadata?.name?.trim() || fileName || '') || undefined;
  if (givenName !== undefined) checkLimit('nameChars', givenName.length);
  const given = format.classification?.specific ?? format.fragment?.metadata?.ext ?? format.file?.metadata?.ext;
  if (given !== undefined && !isKnownSpecific(given)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(given)}`);
  return { seeded, format, content, fileName, givenName, given };
}
