/**
 * Baseline server: a bare Koa app on 127.0.0.1 port 0 with one JSON endpoint (read the body, parse
 * it, answer it back with an id) and a health route. It is what any Koa service costs before it
 * does any work, so Satchel's create throughput and cold start are reported against it.
 */
import Koa from 'koa';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/.well-known/health') {
    ctx.body = 'ok';
    return;
  }
  if (ctx.method !== 'POST') {
    ctx.status = 404;
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  ctx.body = { id: randomUUID(), created: new Date().toISOString(), body };
});

const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`listening on http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
