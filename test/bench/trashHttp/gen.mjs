// A VS Code snippets file of N snippets (with a scope) as the body of POST /satchel/import: node gen.mjs N
const n = Number(process.argv[2] ?? 50000);
const o = {};
for (let i = 0; i < n; i++) o[`snip ${i}`] = { prefix: `p${i}`, scope: 'javascript', body: [`function f${i}(a, b) {`, `  return a * ${i} + b; // ${Math.random()}`, '}'] };
process.stdout.write(JSON.stringify({ files: [{ name: 'big.code-snippets', content: JSON.stringify(o) }] }));
