/** The DNS-rebinding guard reads a Host header as a host and an optional port, nothing else. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostName, isLoopbackHost } from '../../src/server/guard.ts';

const LOOPBACK = ['localhost', 'LOCALHOST:39300', '127.0.0.1', '127.0.0.1:1', '[::1]', '[::1]:39300', ' [::1]:5 ', 'satchel.localhost', 'a.b.localhost:8080'];

/** A loopback name followed by something that is not `:port`, or not a host at all: each is refused. */
const MALFORMED = [
  '[::1]evil.example',
  '[::1]evil.example:80',
  '[::1].evil.example',
  '[::1]@evil.example',
  '[::1]:80evil.example',
  '[::1]:80:80',
  '[::1]:',
  '[::1]:123456',
  '[::1',
  '[::1]]',
  '[[::1]]',
  '[::1] evil.example',
  '[evil.example]',
  '[::1%eth0]',
  '::1',
  'localhost:',
  'localhost:80:80',
  'localhost:80evil',
  'localhost:-1',
  'localhost:+80',
  'localhost:8 0',
  'localhost@evil.example',
  'localhost:80@evil.example',
  'localhost/evil.example',
  'localhost\\evil.example',
  'localhost evil.example',
  'localhost#.evil.example',
  'localhost?.evil.example',
  '127.0.0.1]',
  '127.0.0.1[::1]',
  'evil.example[::1]',
  'evil.example/.localhost',
  'evil.example%2e.localhost',
  '.localhost',
  '-x.localhost',
  'evil.example',
  'evil.example:39300',
  ':39300',
  'user:pass@localhost',
];

test('loopback hosts, with or without a port, are loopback', () => {
  for (const host of LOOPBACK) assert.equal(isLoopbackHost(host), true, host);
  assert.equal(hostName('[::1]:39300'), '[::1]');
  assert.equal(hostName('Satchel.LocalHost:1'), 'satchel.localhost');
});

test('a loopback name followed by anything but an optional :port, or no host at all, is refused', () => {
  for (const host of MALFORMED) {
    assert.equal(isLoopbackHost(host), false, JSON.stringify(host));
  }
  assert.equal(hostName('[::1]evil.example'), undefined);
  assert.equal(hostName('localhost:80@evil.example'), undefined);
});
