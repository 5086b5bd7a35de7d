/**
 * The one table of size limits (core/limits.ts): each check refuses what is over its limit with a
 * TooLargeError (413 at the HTTP edge) naming the limit and the size, and lets a record already over
 * a limit be written as long as the write does not grow it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TooLargeError } from '../../src/core/errors.ts';
import {
  LIMITS,
  LimitExceededError,
  checkContent,
  checkLimit,
  checkRoom,
  checkSeededTags,
  checkSeededWebsites,
  limitMessage,
  overLimit,
} from '../../src/core/limits.ts';

test('the values are the documented ones: a snippet library, not a file store', () => {
  assert.equal(LIMITS.contentChars, 4 * 1024 * 1024, 'the bound the import always had');
  assert.equal(LIMITS.contentBytes, 8 * 1024 * 1024);
  assert.equal(LIMITS.nameChars, 512);
  assert.equal(LIMITS.tagsPerAsset, 128);
  assert.equal(LIMITS.tagChars, 256);
  assert.equal(LIMITS.websitesPerAsset, 64);
  assert.equal(LIMITS.urlChars, 2048);
  assert.equal(LIMITS.messageChars, 4 * 1024 * 1024);
  assert.equal(LIMITS.annotationChars, 4 * 1024 * 1024);
});

test('a check passes at the limit and refuses one over it with a too_large error naming the limit and the size', () => {
  checkLimit('tagsPerAsset', LIMITS.tagsPerAsset);
  assert.throws(
    () => checkLimit('tagsPerAsset', 200_000),
    (error: unknown) => {
      assert.ok(error instanceof LimitExceededError);
      assert.ok(error instanceof TooLargeError, 'the core error the HTTP edge answers 413');
      assert.equal(error.code, 'too_large');
      assert.equal(error.kind, 'tagsPerAsset');
      assert.equal(error.limit, 128);
      assert.equal(error.actual, 200_000);
      assert.equal(error.message, 'A snippet has 200,000 tags; the limit is 128 (see docs/limits.md)');
      return true;
    },
  );
  assert.equal(overLimit('nameChars', 512), undefined);
  assert.equal(overLimit('nameChars', 513), limitMessage('nameChars', 513));
});

test('a record already over a limit may be written without growing: same or smaller passes, larger is refused', () => {
  const stored = 60 * 1024 * 1024;
  checkLimit('contentChars', stored, stored);
  checkLimit('contentChars', stored - 1, stored);
  assert.throws(() => checkLimit('contentChars', stored + 1, stored), LimitExceededError);
  // 200k tags held: removing one passes, adding one is refused.
  checkLimit('tagsPerAsset', 199_999, 200_000);
  assert.throws(() => checkLimit('tagsPerAsset', 200_001, 200_000), /200,001 tags/);
});

test('room for one more: refused at the limit, counted only just past it', () => {
  const asked: number[] = [];
  const counter = (held: number) => (atMost: number) => (asked.push(atMost), Math.min(held, atMost));
  checkRoom('tagsPerAsset', counter(LIMITS.tagsPerAsset - 1));
  assert.throws(() => checkRoom('tagsPerAsset', counter(LIMITS.tagsPerAsset)), /A snippet has 129 tags; the limit is 128/);
  assert.throws(() => checkRoom('websitesPerAsset', counter(200_000)), /A snippet has at least 66 websites; the limit is 64/);
  assert.deepEqual(new Set(asked), new Set([LIMITS.tagsPerAsset + 1, LIMITS.websitesPerAsset + 1]), 'never counts past limit + 1');
});

test('content: text by characters however it came, binary by bytes', () => {
  const text = 'x'.repeat(LIMITS.contentChars);
  checkContent({ text });
  assert.throws(() => checkContent({ text: `${text}y` }), /text content has 4,194,305 characters; the limit is 4,194,304/);
  // Bytes that are UTF-8 text count as text; bytes that are not count as bytes.
  const asText = Array.from({ length: LIMITS.contentChars + 1 }, () => 0x61);
  assert.throws(() => checkContent({ text: 'a'.repeat(asText.length), bytes: asText }), /text content/);
  const image = new Array<number>(LIMITS.contentBytes).fill(0);
  checkContent({ text: '', bytes: image });
  assert.throws(() => checkContent({ text: '', bytes: [...image, 0] }), /binary content has 8,388,609 bytes; the limit is 8,388,608/);
  // The same content saved back onto a larger stored one passes.
  const big = { text: `${text}more` };
  checkContent(big, big);
});

test('seeded tags: counted as the store keeps them (trimmed, ignoring case), each one bounded', () => {
  const many = Array.from({ length: LIMITS.tagsPerAsset }, (_, i) => `tag${i}`);
  checkSeededTags([...many, ...many.map((tag) => ` ${tag.toUpperCase()} `)]);
  assert.throws(() => checkSeededTags([...many, 'one more']), /129 tags/);
  assert.throws(() => checkSeededTags(['t'.repeat(LIMITS.tagChars + 1)]), /A tag has 257 characters/);
});

test('seeded websites: count, url and name bounded', () => {
  const sites = Array.from({ length: LIMITS.websitesPerAsset }, (_, i) => ({ url: `https://example.com/${i}`, name: `site ${i}` }));
  checkSeededWebsites(sites);
  assert.throws(() => checkSeededWebsites([...sites, { url: 'https://example.com/x', name: 'x' }]), /65 websites/);
  assert.throws(() => checkSeededWebsites([{ url: `https://example.com/${'p'.repeat(LIMITS.urlChars)}`, name: 'long' }]), /url has/);
  assert.throws(() => checkSeededWebsites([{ url: 'https://example.com', name: 'n'.repeat(LIMITS.nameChars + 1) }]), /A name has 513/);
});
