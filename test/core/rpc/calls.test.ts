import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Calls } from '../../../src/core/rpc/calls.ts';
import { READY_ID, resultOf, type RpcReply } from '../../../src/core/rpc/replies.ts';

test('replies that arrive out of order reach the call with their id', async () => {
  const calls = new Calls<string>();
  const sent: number[] = [];
  const first = calls.call((id) => sent.push(id));
  const second = calls.call((id) => sent.push(id));
  assert.deepEqual(sent, [first.id, second.id]);
  assert.notEqual(first.id, second.id);
  assert.equal(calls.deliver(second.id, 'to the second'), true);
  assert.equal(calls.deliver(first.id, 'to the first'), true);
  assert.equal(await first.reply, 'to the first');
  assert.equal(await second.reply, 'to the second');
  assert.equal(calls.size, 0);
  assert.equal(calls.deliver(first.id, 'again'), false, 'an answered call hears nothing more');
});

test('failAll fails every waiting call, and a late reply reaches no one', async () => {
  const calls = new Calls<string>(1);
  const waiting = [calls.call(() => undefined), calls.call(() => undefined), calls.call(() => undefined)];
  assert.equal(waiting[0]!.id, 1);
  const gone = new Error('gone');
  calls.failAll(gone);
  for (const { reply } of waiting) await assert.rejects(reply, (error) => error === gone);
  assert.equal(calls.size, 0);
  assert.equal(calls.deliver(waiting[1]!.id, 'late'), false);
});

test('an open call hears every message with its id until it closes', () => {
  const calls = new Calls<number>();
  const heard: number[] = [];
  const failures: Error[] = [];
  const id = calls.listen({ message: (n) => heard.push(n), fail: (error) => failures.push(error) });
  const other = calls.listen({ message: () => assert.fail('not its id'), fail: () => undefined });
  calls.deliver(id, 1);
  calls.deliver(id, 2);
  calls.close(id);
  assert.equal(calls.deliver(id, 3), false);
  calls.failAll(new Error('closing'));
  assert.deepEqual(heard, [1, 2]);
  assert.deepEqual(failures, [], 'a closed call is not failed');
  assert.equal(calls.deliver(other, 4), false);
});

/** A served child (servedChild.ts) and the calls to it, settled by its replies and failed when it exits. */
function servedChild() {
  const child = fork(fileURLToPath(new URL('./servedChild.ts', import.meta.url)), [], {
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'json',
  });
  const calls = new Calls<RpcReply>(READY_ID + 1);
  const ready = calls.replyAt(READY_ID);
  child.on('message', (reply: RpcReply) => calls.deliver(reply.id, reply));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    calls.failAll(new Error(`exited with ${code}`));
    resolve(code);
  }));
  const call = (request: Record<string, unknown>): Promise<unknown> => calls.call((id) => child.send({ ...request, id })).reply.then(resultOf);
  return { child, calls, ready, exited, call };
}

test('a served child answers each call, slow and fast ones in the order they finish, and its errors as errors', async () => {
  const { child, ready, exited, call } = servedChild();
  assert.equal(resultOf(await ready), 'ready');
  const finished: string[] = [];
  const slow = call({ op: 'echo', text: 'slow', delayMs: 300 }).then((text) => (finished.push(String(text)), text));
  const fast = call({ op: 'echo', text: 'fast', delayMs: 0 }).then((text) => (finished.push(String(text)), text));
  assert.deepEqual(await Promise.all([slow, fast]), ['slow', 'fast']);
  assert.deepEqual(finished, ['fast', 'slow'], 'the replies came back out of order');
  await assert.rejects(call({ op: 'fail', message: 'no such thing' }), { message: 'no such thing' });
  child.disconnect();
  assert.equal(await exited, 0, 'the child exits when its parent lets go');
});

test('a child that dies fails every call still waiting for it', async () => {
  const { ready, exited, call, calls } = servedChild();
  await ready;
  const waiting = [call({ op: 'echo', text: 'a', delayMs: 60_000 }), call({ op: 'echo', text: 'b', delayMs: 60_000 })];
  const death = call({ op: 'die' });
  assert.equal(calls.size, 3);
  assert.equal(await exited, 3);
  for (const pending of [...waiting, death]) await assert.rejects(pending, { message: 'exited with 3' });
  assert.equal(calls.size, 0);
});
