/**
 * The few Pieces OS operations the benchmark drives, with the request shapes the published client
 * sends (see the wire reference): connect, create from a Seed, search, suggest, snapshot, update.
 */
import type { BenchClient } from './client.ts';
import type { BenchAsset } from './corpus.ts';

export interface Application {
  readonly id: string;
  readonly [key: string]: unknown;
}

const trackedApplication = { name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX' };

/** Registers the benchmark as an application (POST /connect); undefined if the host has no connector yet. */
export async function connect(client: BenchClient): Promise<Application | undefined> {
  const reply = await client.request('POST', '/connect', { application: trackedApplication });
  const application = (reply.body as { application?: Application } | undefined)?.application;
  return reply.status === 200 && typeof application?.id === 'string' ? application : undefined;
}

/** Until /connect exists, seeds carry an application record of the shape the client sends. */
export const fallbackApplication: Application = {
  id: 'satchel-bench',
  ...trackedApplication,
  onboarded: true,
  privacy: 'OPEN',
};

export function seedOf(asset: BenchAsset, application: Application): unknown {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application,
      metadata: { name: asset.name, tags: asset.tags.map((text) => ({ text })) },
      format: {
        fragment: { string: { raw: asset.code } },
        classification: { generic: 'CODE', specific: asset.language },
      },
    },
  };
}

export async function createAsset(client: BenchClient, seed: unknown): Promise<string> {
  const reply = await client.ok('POST', '/assets/create?transferables=false', seed);
  const id = (reply.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') throw new Error(`create answered without an id: ${reply.text.slice(0, 200)}`);
  return id;
}

export interface SearchReply {
  readonly ids: readonly string[];
  readonly ms: number;
}

export async function search(client: BenchClient, query: string): Promise<SearchReply> {
  const reply = await client.ok('GET', `/assets/search?query=${encodeURIComponent(query)}&transferables=false`);
  const iterable = (reply.body as { iterable?: Array<{ identifier?: string; asset?: { id?: string } }> }).iterable;
  if (!Array.isArray(iterable)) throw new Error(`search answered without iterable: ${reply.text.slice(0, 200)}`);
  return { ids: iterable.map((item) => item.identifier ?? item.asset?.id ?? ''), ms: reply.ms };
}

export type Decision = 'reuse' | 'save' | 'none';

export interface SuggestReply {
  readonly decision: Decision;
  readonly ids: readonly string[];
  readonly ms: number;
}

export async function suggest(client: BenchClient, applicationId: string, text: string): Promise<SuggestReply> {
  const reply = await client.ok('POST', `/${encodeURIComponent(applicationId)}/suggestion`, {
    asset: { format: { fragment: { string: { raw: text } } } },
  });
  const body = reply.body as {
    reuse?: { suggested?: boolean; assets?: { iterable?: Array<{ id?: string }> } };
    save?: { suggested?: boolean };
  };
  const decision: Decision = body.reuse?.suggested ? 'reuse' : body.save?.suggested ? 'save' : 'none';
  const ids = (body.reuse?.assets?.iterable ?? []).map((asset) => asset.id ?? '');
  return { decision, ids, ms: reply.ms };
}

/** Renames an asset through the full-asset update (snapshot, change the name, POST it back). */
export async function rename(client: BenchClient, id: string, name: string): Promise<void> {
  const current = await client.ok('GET', `/asset/${encodeURIComponent(id)}?transferables=false`);
  const asset = { ...(current.body as Record<string, unknown>), name };
  await client.ok('POST', '/asset/update?transferables=false', asset);
}
