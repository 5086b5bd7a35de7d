/**
 * Connect and Disconnect for every agent, on real files in a temporary home: the entry written is
 * read back with the format's own library, the other servers, settings and comments stay, a
 * backup of the original is kept, disconnecting gives back the rest, Pieces entries are replaced
 * only on request, and a malformed file is refused with a clear message and left untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_IDS, AGENTS, type Where } from '../../../src/core/connect/agentTargets.ts';
import { inspectConfig, planConnect, planDisconnect } from '../../../src/core/connect/connectPlan.ts';
import { readConfigText, writeConfigChange } from '../../../src/core/connect/configFiles.ts';
import { ConfigFileError } from '../../../src/core/connect/serverMap.ts';
import { tempDir } from '../../support/helpers.ts';
import { assertLinear } from '../../support/linearTime.ts';
import { BRIDGE, FIXTURES, settingOf } from './agentFixtures.ts';

const URL_NOW = 'http://127.0.0.1:39301/mcp';
const NOW = { url: URL_NOW, bridge: BRIDGE };

function homeFor(): { where: Where; dispose(): void } {
  const home = tempDir('satchel-connect-home-');
  return { where: { home, platform: 'linux', env: {} }, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

function put(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The URL Satchel's entry for `id` reaches, wherever that agent keeps it. */
function urlIn(entry: unknown): string | undefined {
  const text = JSON.stringify(entry);
  return /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(text)?.[0];
}

for (const id of AGENT_IDS) {
  const agent = AGENTS[id];
  const fixture = FIXTURES[id];

  test(`${agent.name}: connect writes Satchel's entry beside the others, keeps comments and a backup; disconnect gives the rest back`, async () => {
    const { where, dispose } = homeFor();
    try {
      const file = agent.configPath(where);
      put(file, fixture.existing);
      const change = planConnect(agent, file, await readConfigText(file), NOW);
      assert.equal(change.changed, true);
      assert.deepEqual(change.pieces, []);
      const written = await writeConfigChange(change);
      assert.ok(written.backup, 'a backup was made');
      assert.equal(readFileSync(written.backup, 'utf8'), fixture.existing, 'the backup is the original');

      const text = readFileSync(file, 'utf8');
      const parsed = fixture.parse(text);
      const servers = fixture.servers(parsed);
      if (agent.stdio) assert.deepEqual(servers[agent.key], { command: BRIDGE.command, args: BRIDGE.args, env: BRIDGE.env }, "the entry runs Satchel's bridge");
      else assert.equal(urlIn(servers[agent.key]), URL_NOW, 'the entry reaches the host');
      assert.deepEqual(servers[agent.key], agent.entry(NOW));
      assert.deepEqual(servers[fixture.otherKey], fixture.servers(fixture.parse(fixture.existing))[fixture.otherKey], 'the other server is untouched');
      assert.equal(settingOf(fixture, parsed), fixture.setting[1], 'settings outside the servers stay');
      if (fixture.comment) assert.ok(text.includes(fixture.comment), 'the comment is kept');
      assert.equal(inspectConfig(agent, file, text).satchel !== undefined, true);

      // Connecting again to the same URL changes nothing; to a new port, only the URL (the bridge finds the port itself).
      assert.equal(planConnect(agent, file, text, NOW).changed, false);
      const moved = planConnect(agent, file, text, { ...NOW, url: 'http://127.0.0.1:39305/mcp' });
      if (agent.stdio) assert.equal(moved.changed, false);
      else assert.equal(urlIn(fixture.servers(fixture.parse(moved.after))[agent.key]), 'http://127.0.0.1:39305/mcp');
      // Another install of Satchel (the extension's folder is renamed by each update): only the bridge's paths change.
      const updated = { ...NOW, bridge: { ...BRIDGE, args: BRIDGE.args.map((arg) => arg.replace('0.1.0', '0.2.0')) } };
      assert.equal(planConnect(agent, file, text, updated).changed, agent.stdio === true);

      const removal = planDisconnect(agent, file, text);
      assert.equal(removal.changed, true);
      await writeConfigChange(removal, new Date(Date.now() + 1000));
      assert.equal(readFileSync(file, 'utf8'), fixture.existing, 'disconnecting gives back the file as it was, byte for byte');
      assert.equal(planDisconnect(agent, file, readFileSync(file, 'utf8')).changed, false, 'a second disconnect has nothing to do');
    } finally {
      dispose();
    }
  });

  test(`${agent.name}: a missing file is created holding only Satchel's entry`, async () => {
    const { where, dispose } = homeFor();
    try {
      const file = agent.configPath(where);
      const change = planConnect(agent, file, await readConfigText(file), NOW);
      const written = await writeConfigChange(change);
      assert.equal(written.backup, undefined);
      const servers = fixture.servers(fixture.parse(readFileSync(file, 'utf8')));
      assert.deepEqual(Object.keys(servers), [agent.key]);
      assert.deepEqual(servers[agent.key], agent.entry(NOW));
      assert.equal(planDisconnect(agent, join(where.home, 'nothing-here'), undefined).changed, false);
    } finally {
      dispose();
    }
  });

  test(`${agent.name}: a Pieces entry is found, kept unless asked, and replaced on request`, async () => {
    const { where, dispose } = homeFor();
    try {
      const file = agent.configPath(where);
      put(file, fixture.withPieces);
      const kept = planConnect(agent, file, fixture.withPieces, NOW);
      assert.deepEqual(kept.pieces, [fixture.piecesKey]);
      assert.equal(kept.piecesReplaced, false);
      assert.ok(fixture.piecesKey in fixture.servers(fixture.parse(kept.after)), 'kept when not asked');

      const replaced = planConnect(agent, file, fixture.withPieces, { ...NOW, replacePieces: true });
      assert.equal(replaced.piecesReplaced, true);
      await writeConfigChange(replaced);
      const servers = fixture.servers(fixture.parse(readFileSync(file, 'utf8')));
      assert.equal(fixture.piecesKey in servers, false, 'the Pieces entry is gone');
      assert.deepEqual(servers[agent.key], agent.entry(NOW));
      assert.ok(fixture.otherKey in servers, 'the other server stays');
      assert.deepEqual(inspectConfig(agent, file, readFileSync(file, 'utf8')).pieces, []);
    } finally {
      dispose();
    }
  });

  test(`${agent.name}: a malformed file is refused with its name and position, and left untouched`, async () => {
    const { where, dispose } = homeFor();
    try {
      const file = agent.configPath(where);
      put(file, fixture.malformed);
      assert.throws(
        () => planConnect(agent, file, fixture.malformed, NOW),
        (error: unknown) =>
          error instanceof ConfigFileError && error.message.includes(file) && /line \d+/.test(error.message) && /Nothing was changed/.test(error.message),
      );
      assert.throws(() => planDisconnect(agent, file, fixture.malformed), ConfigFileError);
      assert.equal(readFileSync(file, 'utf8'), fixture.malformed);
      assert.deepEqual(readdirSync(dirname(file)), [file.split('/').at(-1)], 'no backup nor partial file is left');
    } finally {
      dispose();
    }
  });
}

test('a file changed between the preview and the write is not overwritten', async () => {
  const { where, dispose } = homeFor();
  try {
    const agent = AGENTS.cursor;
    const file = agent.configPath(where);
    put(file, FIXTURES.cursor.existing);
    const change = planConnect(agent, file, FIXTURES.cursor.existing, NOW);
    writeFileSync(file, '{ "mcpServers": {} }\n');
    await assert.rejects(writeConfigChange(change), /changed since the preview/);
    assert.equal(readFileSync(file, 'utf8'), '{ "mcpServers": {} }\n');
  } finally {
    dispose();
  }
});

test("a symlinked config file stays a symlink: the file it points to is written", async () => {
  const { where, dispose } = homeFor();
  try {
    const agent = AGENTS.cursor;
    const file = agent.configPath(where);
    const target = join(where.home, 'dotfiles', 'cursor-mcp.json');
    put(target, FIXTURES.cursor.existing);
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(target, file);
    await writeConfigChange(planConnect(agent, file, await readConfigText(file), NOW));
    assert.ok(lstatSync(file).isSymbolicLink());
    assert.match(readFileSync(target, 'utf8'), /"satchel"/);
  } finally {
    dispose();
  }
});

test('a servers key that holds something else than the agent expects is refused, naming the key', () => {
  assert.throws(() => planConnect(AGENTS.cursor, 'mcp.json', '{ "mcpServers": [] }', NOW), /"mcpServers" is not an object/);
  assert.throws(() => planConnect(AGENTS.goose, 'config.yaml', 'extensions: [a]\n', NOW), /"extensions" is not a mapping/);
  assert.throws(() => planConnect(AGENTS.continue, 'config.yaml', 'mcpServers: {}\n', NOW), /"mcpServers" is not a list/);
  assert.throws(() => planConnect(AGENTS.codex, 'config.toml', 'mcp_servers = 3\n', NOW), /"mcp_servers" is not a table/);
  assert.throws(() => planConnect(AGENTS.zed, 'settings.json', '[1, 2]', NOW), /does not hold a JSON object/);
});

test("reading Codex's config costs linear time on a long line opening with `[` and no `]` (a nested array's row)", () => {
  const toml = (spaces: number): string => `[tool]\nrows = [\n  [ 1,${' '.repeat(spaces)}\n    2 ],\n]\n`;
  assert.match(planConnect(AGENTS.codex, 'config.toml', toml(10), NOW).after, /\[mcp_servers\.satchel\]/);
  // The lazy key before `\s*\]` was ~256× on 16× the line.
  assertLinear('spaces on a row', toml, (text) => planConnect(AGENTS.codex, 'config.toml', text, NOW), { small: 1 << 11, large: 1 << 15, slackMs: 50, runs: 3 });
});
