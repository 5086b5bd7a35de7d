/**
 * A loopback file server for the download figure: one file, with Content-Length, a strong ETag and
 * `Range: bytes=N-` support, as model hosts answer. Prints its URL.
 */
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: fileServer.ts FILE');
const info = statSync(file);
const etag = `"${info.size}-${Math.round(info.mtimeMs)}"`;

const server = createServer((req, res) => {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const from = range && (req.headers['if-range'] === undefined || req.headers['if-range'] === etag) ? Number(range[1]) : 0;
  const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', etag };
  if (from > 0) {
    res.writeHead(206, { ...headers, 'content-length': info.size - from, 'content-range': `bytes ${from}-${info.size - 1}/${info.size}` });
  } else res.writeHead(200, { ...headers, 'content-length': info.size });
  createReadStream(file, { start: from }).pipe(res);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/model.gguf`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
