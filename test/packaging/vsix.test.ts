/**
 * The platform packages `npm run package` built (dist/satchel-<target>.vsix): each one's manifest
 * names its VS Code target, every native binary in it is for that operating system and CPU (read from
 * the file headers, not the names), it carries exactly one node-llama-cpp binary package, and nothing
 * a user never runs (sources, maps, type declarations, tests, llama.cpp's sources). Needs the archives:
 * npm test runs `npm run package` first. Offline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { readZip, type ZipEntry } from '../support/zip.ts';
import { onDemandSources } from '../../scripts/onDemandSources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

type Format = 'elf' | 'mach-o' | 'pe';
interface Expected {
  readonly binaryPackage: string;
  readonly format: Format;
  /** ELF e_machine, Mach-O cputype or PE machine. */
  readonly machine: number;
}

const EXPECTED: Record<string, Expected> = {
  'linux-x64': { binaryPackage: '@node-llama-cpp/linux-x64', format: 'elf', machine: 0x3e },
  'linux-arm64': { binaryPackage: '@node-llama-cpp/linux-arm64', format: 'elf', machine: 0xb7 },
  'darwin-x64': { binaryPackage: '@node-llama-cpp/mac-x64', format: 'mach-o', machine: 0x01000007 },
  'darwin-arm64': { binaryPackage: '@node-llama-cpp/mac-arm64-metal', format: 'mach-o', machine: 0x0100000c },
  'win32-x64': { binaryPackage: '@node-llama-cpp/win-x64', format: 'pe', machine: 0x8664 },
};

/** The executable format and machines of a file, or undefined when it is not a native binary. */
function nativeHeader(bytes: Buffer): { format: Format; machines: number[] } | undefined {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const littleEndian = bytes[5] === 1;
    return { format: 'elf', machines: [littleEndian ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18)] };
  }
  if (bytes.length >= 8 && (bytes.readUInt32LE(0) === 0xfeedfacf || bytes.readUInt32LE(0) === 0xfeedface)) {
    return { format: 'mach-o', machines: [bytes.readUInt32LE(4)] };
  }
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xcafebabe && bytes.readUInt32BE(4) < 32) {
    const count = bytes.readUInt32BE(4);
    return { format: 'mach-o', machines: Array.from({ length: count }, (_, i) => bytes.readUInt32BE(8 + 20 * i)) };
  }
  if (bytes.length >= 0x40 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.readUInt32BE(pe) === 0x50450000) return { format: 'pe', machines: [bytes.readUInt16LE(pe + 4)] };
  }
  return undefined;
}

const NOT_SHIPPED: [RegExp, string][] = [
  [/\.map$/, 'source map'],
  [/\.d\.[cm]?ts$/, 'type declarations'],
  [/(?<!\.d)\.[cm]?tsx?$/, 'TypeScript source'],
  [/^extension\/(src|test|scripts|out)\//, 'project sources or tests'],
  [/\/(test|tests|__tests__)\//, 'a test directory'],
  [/\.(c|cc|cpp|h|hpp|cmake)$|CMakeLists\.txt$|gitRelease\.bundle$/, "llama.cpp's sources"],
  [/node-llama-cpp\/dist\/cli\/commands\//, "node-llama-cpp's CLI"],
];

for (const [target, expected] of Object.entries(EXPECTED)) {
  test(`dist/satchel-${target}.vsix is for ${target} only and ships only what runs`, () => {
    const file = join(root, 'dist', `satchel-${target}.vsix`);
    assert.ok(existsSync(file), `${file} is missing: run npm run package`);
    const entries = readZip(file);

    const vsixManifest = entries.get('extension.vsixmanifest')!.read().toString('utf8');
    assert.match(vsixManifest, new RegExp(`<Identity [^>]*TargetPlatform="${target}"`));
    const packageJson = JSON.parse(entries.get('extension/package.json')!.read().toString('utf8'));
    assert.equal(packageJson.main, './dist/extension.cjs');
    for (const bundle of ['extension.cjs', 'extensionMain.cjs', ...Object.values(onDemandSources), 'zod.cjs', 'yaml.cjs', 'jsYaml.cjs', 'jsoncParser.cjs', 'smolToml.cjs', 'ws.cjs', 'cli.cjs', 'llamaHost.cjs', 'classifyWorker.cjs', 'secretsWorker.cjs', 'jsonWorker.cjs', 'importHost.cjs', 'prepareWorker.cjs', 'encoderHost.cjs', 'tokenModel.json']) assert.ok(entries.has(`extension/dist/${bundle}`), bundle);

    // The built-in sentence encoder, once: its graph, vocabulary and seven weight shards, and the backend's .wasm.
    const encoderFiles = ['model.json', 'vocab.json', ...Array.from({ length: 7 }, (_, i) => `group1-shard${i + 1}of7`)].map((file) => `extension/dist/use-lite/${file}`);
    for (const file of [...encoderFiles, 'extension/dist/tfjs-backend-wasm-simd.wasm']) assert.ok(entries.has(file), file);
    const copies = [...entries.keys()].filter((name) => /group1-shard\dof7$|tfjs-backend-wasm[^/]*\.wasm$|(^|\/)@energetic-ai\//.test(name));
    assert.deepEqual(copies.sort(), [...encoderFiles.filter((file) => file.includes('shard')), 'extension/dist/tfjs-backend-wasm-simd.wasm', 'extension/dist/tfjs-backend-wasm.wasm'].sort(), 'the encoder is carried once');

    const binaryPackages = new Set([...entries.keys()].map((name) => /^extension\/node_modules\/(@node-llama-cpp\/[^/]+)\//.exec(name)?.[1]).filter(Boolean));
    assert.deepEqual([...binaryPackages], [expected.binaryPackage]);
    assert.ok(entries.has('extension/node_modules/node-llama-cpp/package.json'));

    const natives: ZipEntry[] = [];
    for (const entry of entries.values()) {
      for (const [pattern, what] of NOT_SHIPPED) assert.doesNotMatch(entry.name, pattern, `${entry.name} is ${what}`);
      const header = nativeHeader(entry.read());
      if (!header) continue;
      natives.push(entry);
      assert.equal(header.format, expected.format, `${entry.name} is ${header.format}, not ${expected.format}`);
      assert.deepEqual(header.machines, [expected.machine], `${entry.name} is for machine ${header.machines.map((m) => m.toString(16))}`);
    }
    const addon = natives.find((entry) => entry.name.endsWith('/llama-addon.node'));
    assert.ok(addon, 'no llama-addon.node in the package');
    assert.ok(addon.name.startsWith(`extension/node_modules/${expected.binaryPackage}/bins/`), addon.name);
  });

  test(`dist/satchel-${target}.vsix carries the notices of every package it ships, bundled or whole`, () => {
    const entries = readZip(join(root, 'dist', `satchel-${target}.vsix`));
    const notices = entries.get('extension/ThirdPartyNotices.txt')?.read().toString('utf8');
    assert.ok(notices, 'no ThirdPartyNotices.txt');
    const listed = new Set([...notices.matchAll(/^(\S+) \d+\.\d+\.\d+\S* \(/gm)].map((match) => match[1]));
    // Whole under node_modules: each package directory with a manifest.
    const whole = [...entries.keys()].flatMap((name) => /^extension\/node_modules\/(?:.*\/node_modules\/)?((?:@[^/]+\/)?[^/@][^/]*)\/package\.json$/.exec(name)?.[1] ?? []);
    // Bundled: every dependency but node-llama-cpp (shipped whole) and a package of types alone.
    const bundled = Object.keys(manifest.dependencies).filter((name) => name !== 'node-llama-cpp' && name !== '@secretlint/types');
    for (const name of [...whole, ...bundled, 'xmlchars', 'mime-db']) assert.ok(listed.has(name), `${name} is not in the notices`);
    assert.ok(whole.includes(expected.binaryPackage) && whole.includes('isexe'), 'the closure was read');
    // A license kept as LICENSE.md, which .vscodeignore drops from the package's folder, is in the notices.
    assert.match(notices, /^isexe [^\n]+\n[^\n]*\n=+\n\n[^=]*Copyright/m);
    assert.match(notices, /^koa \S+ \(MIT\)\n[^\n]*\n=+\n\n[^=]*Permission is hereby granted/m);
  });
}
