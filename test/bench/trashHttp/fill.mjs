// node fill.mjs PORT IDS.json: moves every asset of IDS.json to the trash through POST /assets/{id}/delete, 8 at a time
import http from 'node:http';
const port = Number(process.argv[2]);
const req = (method, path) => new Promise((res, rej) => { const r = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: { 'content-type': 'application/json' } }, (s) => { let t = ''; s.setEncoding('utf8'); s.on('data', (c) => (t += c)); s.on('end', () => res({ status: s.statusCode, text: t })); }); r.on('error', rej); r.end(method === 'POST' ? '' : undefined); });
const ids = JSON.parse(process.argv[3] ? (await import('node:fs')).readFileSync(process.argv[3], 'utf8') : '[]');
let i = 0, bad = 0; const t0 = Date.now();
await Promise.all(Array.from({ length: 8 }, async () => { while (i < ids.length) { const id = ids[i++]; const r = await req('POST', `/assets/${id}/delete`); if (r.status >= 300) bad++; } }));
console.log('deleted', ids.length, 'bad', bad, 'ms', Date.now() - t0);
