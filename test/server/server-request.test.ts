/**
 * The standalone server's request URL (`server/server-request.ts`): a plain path and query is read
 * without `new URL` (issue 31's fixed cost per request), so it must be exactly what `new URL` makes
 * of it, and every other target must still go through `new URL`.
 */
import { describe, expect, it } from 'vitest';
import { requestUrl } from '../../src/server/server-request.js';

const ORIGIN = 'http://127.0.0.1:3000';

/** What the pipeline reads of a URL, for comparing. */
const seen = (url: Pick<URL, 'href' | 'origin' | 'pathname' | 'search' | 'searchParams'> | null) =>
  url && { href: url.href, origin: url.origin, pathname: url.pathname, search: url.search, params: [...url.searchParams] };

/** Targets read without `new URL`. */
const PLAIN = [
  '/',
  '/alive',
  '/api/conversations',
  '/api/conversations?limit=5&page_id=abc',
  '/api/conversations/search?ids=a&ids=b&x=%20y+z',
  '/a?',
  '/a?b?c=d/e',
  '/a//b',
  '//evil.example/x',
  '/file.txt/a.b..c',
  '/%7e/%zz?%7E=1',
  '/a!$&()*+,;=:@b_c-d~e?f!$&()*+,;=:@/?',
];

/** Targets `new URL` changes, or that are no plain path: parsed by it. */
const PARSED = [
  '/.well-known/x',
  '/a/../b',
  '/a/./b',
  '/a/%2e%2E/b',
  '/a/%2E',
  '/a b?c d',
  "/a?b'c",
  '/a"b<c>d',
  '/a\\b',
  '/a^b|c{d}`e',
  '/é?ü',
  '/a#frag',
  '/a?b#frag',
  'http://127.0.0.1:3000/x?y=1',
  'http://other.example/x',
];

describe('requestUrl', () => {
  it('reads a plain path and query as new URL does, without making one', () => {
    for (const target of PLAIN) {
      const url = requestUrl(ORIGIN, target);
      expect(url, target).not.toBeInstanceOf(URL);
      expect(seen(url), target).toEqual(seen(new URL(`${ORIGIN}${target}`)));
    }
  });

  it('parses any other target with new URL, as the server always did', () => {
    for (const target of PARSED) {
      const url = requestUrl(ORIGIN, target);
      expect(url, target).toBeInstanceOf(URL);
      const expected = target.startsWith('/') ? new URL(`${ORIGIN}${target}`) : new URL(new URL(target, ORIGIN).href);
      expect(seen(url), target).toEqual(seen(expected));
    }
  });

  it('answers null for a target that is no URL', () => {
    expect(requestUrl(ORIGIN, 'http://[bad')).toBeNull();
    expect(requestUrl(ORIGIN, 'http://a b/')).toBeNull();
  });
});
