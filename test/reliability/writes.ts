/**
 * Acknowledged writes for the durability tests: an asset created through the host's HTTP edge
 * (POST /assets/create), and its presence read back the same way. The seed is the one the
 * published client sends (pieces-wire.md, assetsCreateNewAsset).
 */
import { randomUUID } from 'node:crypto';
import { raw, jsonErrorCode } from './support.ts';

export const APPLICATION = {
  id: 'b3a1f0c2-0000-4000-8000-00000000beef',
  name: 'OPEN_SOURCE',
  version: '1.0.0',
  platform: 'LINUX',
  onboarded: false,
  privacy: 'OPEN',
  capabilities: 'LOCAL',
  mechanism: 'MANUAL',
  automaticUnload: false,
} as const;

export function seed(text: string, name = `reliability ${randomUUID().slice(0, 8)}`): unknown {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: APPLICATION,
      metadata: { name },
      format: { fragment: { string: { raw: text }, metadata: { ext: 'ts' } } },
    },
  };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Creates an asset holding `text`; resolves with its id once the host has answered 200. */
export async function createAsset(port: number, text: string, name?: string): Promise<string> {
  const reply = await raw(port, {
    method: 'POST',
    path: '/assets/create?transferables=false',
    headers: JSON_HEADERS,
    body: JSON.stringify(seed(text, name)),
  });
  const id = (reply.json as { id?: unknown } | undefined)?.id;
  if (reply.status !== 200 || typeof id !== 'string') {
    throw new Error(`POST /assets/create answered ${reply.status} ${jsonErrorCode(reply) ?? ''} ${reply.text.slice(0, 300)}`);
  }
  return id;
}

/** Every asset id the host lists. */
export async function assetIds(port: number): Promise<string[]> {
  const reply = await raw(port, { path: '/assets/identifiers', headers: { accept: 'application/json' } });
  if (reply.status !== 200) throw new Error(`GET /assets/identifiers answered ${reply.status} ${reply.text.slice(0, 300)}`);
  const iterable = (reply.json as { iterable?: Array<{ id?: unknown }> } | undefined)?.iterable ?? [];
  return iterable.map((entry) => String(entry.id));
}

export interface StoreWriter {
  readonly via: string;
  write(port: number, text: string): Promise<string>;
  /** The subset of `ids` the host has, in the order given. */
  present(port: number, ids: readonly string[]): Promise<string[]>;
}

export function storeWriter(): StoreWriter {
  return {
    via: 'assets-create',
    write: (port, text) => createAsset(port, text),
    async present(port, ids) {
      const have = new Set(await assetIds(port));
      return ids.filter((id) => have.has(id));
    },
  };
}
