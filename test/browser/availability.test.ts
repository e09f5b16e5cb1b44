/**
 * Whether the browser suites run (test/support/chromium-path.ts): with Chromium they run; without
 * it they are skipped with one line saying how to get it, unless FAKEHANDS_REQUIRE_BROWSER=1 (set
 * by .ci/run) asks for the browser, when they run and fail at launch.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailability } from '../support/chromium-path.js';

const nowhere = () => false;
const everywhere = () => true;

describe('browser suites without Chromium', () => {
  it('run when Chromium is at /usr/bin/chromium or CHROMIUM_PATH', () => {
    expect(browserAvailability({}, (path) => path === '/usr/bin/chromium')).toEqual({ skip: false, line: null });
    expect(browserAvailability({ CHROMIUM_PATH: '/opt/chrome' }, (path) => path === '/opt/chrome')).toEqual({ skip: false, line: null });
  });

  it('are skipped without one, with one line naming the path and how to get it', () => {
    expect(browserAvailability({ CHROMIUM_PATH: '/opt/none' }, nowhere)).toEqual({
      skip: true,
      line: 'Browser tests skipped: no Chromium at /opt/none; install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary (FAKEHANDS_REQUIRE_BROWSER=1 makes this a failure)',
    });
    expect(browserAvailability({}, nowhere).line).toContain('no Chromium at /usr/bin/chromium;');
  });

  it('run (and fail at launch) without one when FAKEHANDS_REQUIRE_BROWSER=1', () => {
    expect(browserAvailability({ FAKEHANDS_REQUIRE_BROWSER: '1' }, nowhere)).toEqual({ skip: false, line: null });
    expect(browserAvailability({ FAKEHANDS_REQUIRE_BROWSER: '0' }, nowhere).skip).toBe(true);
    expect(browserAvailability({ FAKEHANDS_REQUIRE_BROWSER: '1' }, everywhere)).toEqual({ skip: false, line: null });
  });

  it('are required by CI (.ci/run sets FAKEHANDS_REQUIRE_BROWSER=1 before npm test)', () => {
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    expect(ci).toMatch(/^export FAKEHANDS_REQUIRE_BROWSER=1$/m);
    expect(ci.indexOf('export FAKEHANDS_REQUIRE_BROWSER=1')).toBeLessThan(ci.indexOf('npm test'));
  });

  it('every file that launches Chromium asks first', () => {
    for (const file of ['browser/chromium.test.ts', 'web-canvas/canvas.test.ts', 'web-app/real-web-app.test.ts'])
      expect(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'), file).toContain('browserSuitesSkipped()');
  });
});
