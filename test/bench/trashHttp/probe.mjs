// node probe.mjs PORT [PATH] [DELAY_MS]: GET /.well-known/health every 100 ms; POSTs PATH (default /satchel/trash/empty) after DELAY_MS (1000) and reads its reply; probes go on 3 s after it; prints one JSON line
import http from 'node:http';
const port = Number(process.argv[2]);
const path = process.argv[3] ?? '/satchel/trash/empty';
const t0 = performance.now();
const probes = [];
let running = true;
const get = () => new Promise((res) => { const s = performance.now(); http.get({ host: '127.0.0.1', port, path: '/.well-known/health', agent: false }, (r) => { r.resume(); r.on('end', () => res(performance.now() - s)); }).on('error', () => res(-1)); });
const loop = (async () => { while (running) { const at = performance.now() - t0; const ms = await get(); probes.push({ at: Math.round(at), ms: Math.round(ms) }); await new Promise((r) => setTimeout(r, 100)); } })();
await new Promise((r) => setTimeout(r, Number(process.argv[4] ?? 1000)));
const started = performance.now() - t0;
let firstByte = -1, lines = 0, tail = '';
await new Promise((res) => { const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false }, (r) => { r.setEncoding('utf8'); r.on('data', (c) => { if (firstByte < 0) firstByte = performance.now() - t0; lines += c.split('\n').length - 1; tail = (tail + c).slice(-300); }); r.on('end', res); }); req.end(); });
const ended = performance.now() - t0;
await new Promise((r) => setTimeout(r, 3000));
running = false; await loop;
const during = probes.filter((p) => p.at >= started - 100);
const base = probes.filter((p) => p.at < started).map((p) => p.ms).sort((a, b) => a - b);
console.log(JSON.stringify({ started: Math.round(started), firstByte: Math.round(firstByte), ended: Math.round(ended), total_ms: Math.round(ended - started), lines, base_median: base[Math.floor(base.length / 2)], slowest: during.sort((a, b) => b.ms - a.ms).slice(0, 5), tail: tail.slice(-150) }));
