/**
 * A stand-in for Pieces OS on 127.0.0.1: the routes an import from Pieces reads, answered from a
 * recorded library (test/fixtures/piecesOs/library.ts) as Pieces OS answers them: the version as
 * plain text, collections as `{ iterable }`, a 404 for what is not there. The library can be
 * changed between runs, and asset reads can be held (to cancel an import part-way).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as P from '@pieces.app/pieces-os-client';
import type { Jsonify } from '../../src/core/piecesTypes.ts';
import { ANCHOR, ANCHOR_POINT, ANNOTATIONS, ASSETS, CONVERSATION, MDN, MESSAGES, TAGS } from '../fixtures/piecesOs/library.ts';

type J<T> = Jsonify<T>;

export interface PiecesLibrary {
  assets: J<P.Asset>[];
  tags: J<P.Tag>[];
  websites: J<P.Website>[];
  annotations: J<P.Annotation>[];
  anchors: J<P.Anchor>[];
  anchorPoints: J<P.AnchorPoint>[];
  conversations: J<P.Conversation>[];
  messages: J<P.ConversationMessage>[];
}

export function recordedLibrary(): PiecesLibrary {
  return structuredClone({ assets: ASSETS, tags: Object.values(TAGS), websites: [MDN], annotations: Object.values(ANNOTATIONS), anchors: [ANCHOR], anchorPoints: [ANCHOR_POINT], conversations: [CONVERSATION], messages: MESSAGES });
}

export interface PiecesOsStandIn {
  readonly url: string;
  readonly port: number;
  library: PiecesLibrary;
  /** Paths read, in order (query strings included). */
  readonly reads: string[];
  /** While set, each asset read waits for it. */
  hold: Promise<void> | undefined;
  close(): Promise<void>;
}

export async function startPiecesOs(version = '12.3.1', port = 0): Promise<PiecesOsStandIn> {
  const reads: string[] = [];
  const standIn: { library: PiecesLibrary; hold: Promise<void> | undefined } = { library: recordedLibrary(), hold: undefined };
  const answer = (res: ServerResponse, value: unknown): void => {
    if (value === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    reads.push(`${url.pathname}${url.search}`);
    const { library } = standIn;
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method !== 'GET') return answer(res, undefined);
    if (url.pathname === '/.well-known/version') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(version);
      return;
    }
    if (url.pathname === '/.well-known/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (url.pathname === '/assets/identifiers') {
      return answer(res, { iterable: library.assets.map((asset) => ({ id: asset.id })) } satisfies J<P.FlattenedAssets>);
    }
    if (url.pathname === '/conversations') return answer(res, { iterable: library.conversations } satisfies J<P.Conversations>);
    const [kind, id, rest] = segments;
    if (id === undefined) return answer(res, undefined);
    switch (kind) {
      case 'asset': {
        if (standIn.hold) await standIn.hold;
        const asset = library.assets.find((candidate) => candidate.id === id);
        // Without transferables Pieces OS leaves the content out.
        return answer(res, asset && url.searchParams.get('transferables') === 'true' ? asset : undefined);
      }
      case 'tag':
        return answer(res, library.tags.find((tag) => tag.id === id));
      case 'website':
        return answer(res, library.websites.find((website) => website.id === id));
      case 'annotation':
        return answer(res, library.annotations.find((annotation) => annotation.id === id));
      case 'anchor':
        return answer(res, library.anchors.find((anchor) => anchor.id === id));
      case 'anchor_point':
        return answer(res, library.anchorPoints.find((point) => point.id === id));
      case 'conversation':
        if (rest === 'messages') {
          return answer(res, { iterable: library.messages.filter((message) => message.conversation.id === id) } satisfies J<P.ConversationMessages>);
        }
        return answer(res, library.conversations.find((conversation) => conversation.id === id));
      default:
        return answer(res, undefined);
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    reads,
    get library() {
      return standIn.library;
    },
    set library(value) {
      standIn.library = value;
    },
    get hold() {
      return standIn.hold;
    },
    set hold(value) {
      standIn.hold = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
