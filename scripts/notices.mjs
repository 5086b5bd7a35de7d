// The third-party notices every .vsix carries (ThirdPartyNotices.txt, beside package.json). esbuild
// copies packages' code into Satchel's bundles, where their own LICENSE files do not follow, and
// .vscodeignore drops every *.md, which is where some of the packages shipped whole under
// node_modules keep theirs (LICENSE.md); MIT, ISC, BSD and Apache-2.0 all ask that the notice go
// with the code. The build records which packages each bundle holds (out/bundled-packages.json),
// the packaging step adds what it ships whole and writes one file.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A package's license, notice and copying files, by name (LICENSE, LICENSE.md, license-MIT.txt, COPYING, NOTICE…). */
const LICENSE_FILE = /^(licen[cs]e|copying|notice)([-._].*)?$/i;

/**
 * The directory of the package a file belongs to: the path up to the last `node_modules/<name>` (or
 * `node_modules/@scope/<name>`) in it, or undefined for a file of no package (Satchel's own sources).
 */
export function packageRootOf(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1].startsWith('@') ? 3 : 2;
  if (at + length > parts.length) return undefined;
  return parts.slice(0, at + length).join('/');
}

/**
 * An esbuild plugin adding to `roots` the package of every file a written bundle holds code of
 * (a file tree-shaken to nothing, or only read for its types, adds none). Needs `metafile: true`.
 */
export function bundledPackagesPlugin(roots) {
  return {
    name: 'bundled-packages',
    setup(build) {
      build.onEnd((result) => {
        if (build.initialOptions.write === false || !result.metafile) return;
        for (const output of Object.values(result.metafile.outputs)) {
          for (const [file, input] of Object.entries(output.inputs)) {
            const root = input.bytesInOutput > 0 ? packageRootOf(file) : undefined;
            if (root !== undefined) roots.add(root);
          }
        }
      });
    },
  };
}

/** One package's entry: its name, version, declared license, home and the text of each license file it has. */
function entryOf(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const license = typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? manifest.licenses?.map((l) => l.type).join(' OR ') ?? 'not stated');
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  const files = readdirSync(dir)
    .filter((name) => LICENSE_FILE.test(name) && statSync(path.join(dir, name)).isFile())
    .sort();
  const texts = files.map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8').replace(/\r\n/g, '\n').trimEnd() }));
  return { name: manifest.name, version: manifest.version, license, home: manifest.homepage ?? repository, texts, author: authorOf(manifest.author) };
}

function authorOf(author) {
  if (typeof author === 'string') return author;
  return author?.name;
}

const RULE = '='.repeat(78);

/**
 * The text of ThirdPartyNotices.txt for the packages at `dirs` (package directories), each once by name
 * and version, sorted by name. A package without a license file is listed with what its manifest says.
 */
export function thirdPartyNotices(dirs) {
  const entries = new Map();
  for (const dir of dirs) {
    if (!existsSync(path.join(dir, 'package.json'))) throw new Error(`${dir} is not a package directory`);
    const entry = entryOf(dir);
    entries.set(`${entry.name}@${entry.version}`, entry);
  }
  const sorted = [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const parts = [
    'Satchel (MIT, see LICENSE) ships code of the open-source packages below: bundled into its dist/',
    'files, or whole under node_modules. Each is listed with its license and the notice its authors ask',
    'to go with their code.',
    '',
  ];
  for (const entry of sorted) {
    parts.push(RULE, `${entry.name} ${entry.version} (${entry.license})`);
    if (entry.home) parts.push(entry.home);
    parts.push(RULE, '');
    if (entry.texts.length === 0) parts.push(`The package has no license file; its package.json states the license ${entry.license}${entry.author ? `, by ${entry.author}` : ''}.`, '');
    for (const { name, text } of entry.texts) parts.push(...(entry.texts.length > 1 ? [`--- ${name} ---`] : []), text, '');
  }
  return `${parts.join('\n')}\n`;
}
