/**
 * A 1 MiB snippet's document against a real host, counting the bytes on the port: opening it (VS
 * Code's stat, then its read) brings the text across once, and saving it sends the text once and
 * gets no copy back. Each byte crossing is parsed and encoded in the extension host, which in the
 * window that hosts the data is also the host's own thread, so copies are what stalls it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { startTestServer } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { assetText } from '../../src/client/assets.ts';
import { clientSnippetStore } from '../../src/extension/editing/snippetStore.ts';
import { SnippetVersions } from '../../src/extension/editing/snippetVersions.ts';

const application = { id: 'satchel-test', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' } as const;
const MiB = 1 << 20;

/** A TCP relay in front of the host that counts what crosses it each way. */
async function countingRelay(port: number): Promise<{ url: string; counts: { sent: number; received: number }; server: Server }> {
  const counts = { sent: 0, received: 0 };
  const server = createServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.on('data', (chunk: Buffer) => (counts.sent += chunk.length));
    upstream.on('data', (chunk: Buffer) => (counts.received += chunk.length));
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts, server };
}

function rows(): string {
  const lines: string[] = [];
  for (let size = 0, i = 0; size < MiB; i++) {
    const line = `export const row${String(i).padStart(6, '0')} = { id: ${i}, label: ${JSON.stringify(`row ${i}`)} };`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

test('a 1 MiB snippet: opening brings its text across once, saving sends it once and gets no copy back', async () => {
  const host = await startTestServer();
  const relay = await countingRelay(Number(new URL(host.url).port));
  const direct = new SatchelClient(host.url);
  const client = new SatchelClient(relay.url);
  try {
    const text = rows();
    const { id } = await direct.assets.createFromText({ text, application, language: 'ts', name: 'Generated rows' });
    const versions = new SnippetVersions(clientSnippetStore(() => client));
    const measure = async (work: () => Promise<unknown>) => {
      relay.counts.sent = 0;
      relay.counts.received = 0;
      await work();
      return { ...relay.counts };
    };

    // VS Code opens a document with a stat, then a read.
    const opened = await measure(async () => {
      await versions.stat(id, 'content');
      assert.equal(new TextDecoder().decode(await versions.read(id, 'content')), text);
    });
    assert.ok(opened.received < 1.25 * MiB, `opening received ${opened.received} bytes for a ${text.length}-byte text`);

    // VS Code saves with a stat (its check), the write, and a stat of what it wrote.
    const edited = `// Generated: do not edit by hand.\n${text}`;
    const saved = await measure(async () => {
      await versions.stat(id, 'content');
      await versions.write(id, 'content', new TextEncoder().encode(edited));
      await versions.stat(id, 'content');
    });
    assert.ok(saved.sent < 1.25 * MiB, `saving sent ${saved.sent} bytes`);
    assert.ok(saved.received < 64 * 1024, `saving received ${saved.received} bytes`);
    assert.equal(assetText(await direct.assets.get(id)), edited);
    console.log(`[editing] 1 MiB snippet over the port: open received ${opened.received} bytes; save sent ${saved.sent}, received ${saved.received}`);
  } finally {
    client.dispose();
    direct.dispose();
    relay.server.close();
    await host.close();
  }
});
