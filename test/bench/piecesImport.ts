/**
 * How fast Import from Pieces goes: a stand-in Pieces OS (test/support/piecesOsServer.ts) serving
 * --size generated assets (each with the recorded library's tags, website, description, comment and
 * anchor) and --conversations conversations of 4 messages, imported through a real host
 * (POST /satchel/import/pieces), then imported again (nothing changed: every record compared).
 *   node --experimental-strip-types test/bench/piecesImport.ts --size 2000 --conversations 200
 */
import { parseArgs } from 'node:util';
import { startTestServer } from '../support/helpers.ts';
import { startPiecesOs } from '../support/piecesOsServer.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '2000' }, conversations: { type: 'string', default: '200' } } });
const size = Number(values.size);
const conversationCount = Number(values.conversations);

const pieces = await startPiecesOs();
const [template] = pieces.library.assets;
pieces.library.assets = Array.from({ length: size }, (_, i) => {
  const id = `bench-asset-${i}`;
  const format = { ...template!.formats.iterable[0]!, id: `${id}-format`, fragment: { string: { raw: `export const value${i} = ${i} * 31; // bench ${i}\n` } } };
  return { ...template!, id, name: `Bench ${i}`, formats: { iterable: [format] }, original: { id: format.id, reference: { ...format, asset: id } } };
});
const [conversation] = pieces.library.conversations;
const [message] = pieces.library.messages;
pieces.library.conversations = Array.from({ length: conversationCount }, (_, i) => ({ ...conversation!, id: `bench-conv-${i}`, name: `Bench conversation ${i}`, assets: { iterable: [{ id: `bench-asset-${i % size}` }] } }));
pieces.library.messages = pieces.library.conversations.flatMap((c, i) =>
  Array.from({ length: 4 }, (_, m) => ({ ...message!, id: `${c.id}-m${m}`, conversation: { id: c.id }, created: { value: new Date(Date.UTC(2024, 0, 1, 0, i, m)).toISOString() }, fragment: { string: { raw: `Message ${m} of ${c.id}` } } })),
);

const host = await startTestServer();
const client = new SatchelClient(host.url);
try {
  for (const run of ['first', 'second']) {
    const started = performance.now();
    const summary = await client.imports.importPieces(pieces.url);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${run} run: ${seconds.toFixed(1)} s for ${size} assets and ${conversationCount} conversations ` +
        `(${Math.round(size / seconds)} assets/s): imported ${summary.imported}, updated ${summary.updated}, unchanged ${summary.duplicates}, ` +
        `conversations written ${summary.conversations ?? 0}, failed ${summary.failed}`,
    );
  }
} finally {
  client.dispose();
  await host.close();
  await pieces.close();
}
