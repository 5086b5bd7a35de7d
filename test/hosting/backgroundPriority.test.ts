/**
 * The data host's priority while bulk work runs (hosting/backgroundPriority.ts): lowered through its
 * session's autogroup on Linux when it leads its own session (as a window starts it), through its
 * priority class on Windows, and set back once the work ends; left alone elsewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { backgroundPriority, type PriorityPlatform } from '../../src/hosting/backgroundPriority.ts';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

function fakePlatform(platform: NodeJS.Platform, leader: boolean, failures: Array<NodeJS.ErrnoException | undefined> = [], start = 0): PriorityPlatform & { readonly writes: number[] } {
  const writes: number[] = [];
  let now = start;
  const write = (value: number): void => {
    const failure = failures.shift();
    if (failure) throw failure;
    writes.push(value);
    now = value;
  };
  return { platform, sessionLeader: () => leader, readAutogroupNice: () => now, writeAutogroupNice: write, getPriorityClass: () => now, setPriorityClass: write, writes };
}

test('on Linux, in a session of its own, the autogroup goes to nice 10 for bulk work and back to 0 after', () => {
  const platform = fakePlatform('linux', true);
  const priority = backgroundPriority(() => assert.fail('nothing to report'), platform);
  assert.equal(priority.means, 'autogroup');
  priority.set(true);
  priority.set(true);
  priority.set(false);
  assert.deepEqual(platform.writes, [10, 0], 'a change already made is not made again');
  priority.set(true);
  priority.dispose();
  assert.deepEqual(platform.writes, [10, 0, 10, 0], 'closing mid-work sets it back');
});

test('it is set back to what it was, and a host the user lowered further is left as it is', () => {
  const niced = fakePlatform('linux', true, [], 5);
  const priority = backgroundPriority(() => assert.fail('nothing to report'), niced);
  priority.set(true);
  priority.set(false);
  assert.deepEqual(niced.writes, [10, 5]);
  for (const platform of [fakePlatform('linux', true, [], 15), fakePlatform('win32', false, [], constants.priority.PRIORITY_LOW)]) {
    const lowered = backgroundPriority(() => assert.fail('nothing to report'), platform);
    lowered.set(true);
    lowered.set(false);
    lowered.set(true);
    lowered.dispose();
    assert.deepEqual(platform.writes, [], `${platform.platform}: never raised, never written`);
  }
});

test('a host that shares a terminal\'s session, or runs on macOS, keeps its priority', () => {
  for (const platform of [fakePlatform('linux', false), fakePlatform('darwin', true)]) {
    const priority = backgroundPriority(() => assert.fail('nothing to report'), platform);
    assert.equal(priority.means, undefined);
    priority.set(true);
    priority.dispose();
    assert.deepEqual(platform.writes, []);
  }
});

test('on Windows the priority class goes below normal and back', () => {
  const platform = fakePlatform('win32', false);
  const priority = backgroundPriority(() => assert.fail('nothing to report'), platform);
  priority.set(true);
  priority.set(false);
  assert.deepEqual(platform.writes, [constants.priority.PRIORITY_BELOW_NORMAL, constants.priority.PRIORITY_NORMAL]);
});

test('a change the kernel puts off (EAGAIN) is made shortly after, with the state wanted by then', async () => {
  const platform = fakePlatform('linux', true, [errno('EAGAIN'), errno('EAGAIN')]);
  const priority = backgroundPriority(() => assert.fail('nothing to report'), platform);
  priority.set(true);
  assert.deepEqual(platform.writes, []);
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(platform.writes, [10]);
  priority.set(false);
  assert.deepEqual(platform.writes, [10, 0]);
  priority.dispose();
});

test('a refusal is reported once and the host keeps its priority; a kernel without autogroups says nothing', () => {
  const reports: string[] = [];
  const refused = fakePlatform('linux', true, [errno('EACCES')]);
  const priority = backgroundPriority((message) => reports.push(message), refused);
  priority.set(true);
  priority.set(false);
  priority.set(true);
  assert.equal(reports.length, 1);
  assert.match(reports[0]!, /autogroup.*EACCES.*keeps its priority/);
  assert.deepEqual(refused.writes, []);
  const missing = fakePlatform('linux', true, [errno('ENOENT')]);
  backgroundPriority((message) => reports.push(message), missing).set(true);
  assert.equal(reports.length, 1);
});

const autogroups = process.platform === 'linux' && existsSync('/proc/self/autogroup');
test('on this Linux kernel, a detached process lowers its own autogroup and sets it back', { skip: autogroups ? false : 'no autogroups here' }, async () => {
  const module = fileURLToPath(new URL('../../src/hosting/backgroundPriority.ts', import.meta.url));
  const script = `
    const { readFileSync } = await import('node:fs');
    const { backgroundPriority } = await import(${JSON.stringify(module)});
    const nice = () => readFileSync('/proc/self/autogroup', 'utf8').trim().split(' nice ')[1];
    const until = async (value) => { for (let i = 0; i < 50 && nice() !== value; i++) await new Promise((r) => setTimeout(r, 50)); return nice(); };
    const priority = backgroundPriority((message) => console.error(message));
    const seen = [priority.means, nice()];
    priority.set(true);
    seen.push(await until('10'));
    priority.set(false);
    seen.push(await until('0'));
    console.log(JSON.stringify(seen));`;
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, err);
  assert.equal(err, '');
  assert.deepEqual(JSON.parse(out), ['autogroup', '0', '10', '0']);
});
