/**
 * `fakehands canvas` (`npm run canvas`): the fake and Agent Canvas's page routed to it, in one
 * command. Skipped with one line when the npm registry cannot be reached to pack Agent Canvas.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureAgentCanvas } from '../../src/canvas/package.js';
import { BIN } from '../support/cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const canvasDir = await ensureAgentCanvas(join(ROOT, '.cache')).catch((error: Error) => {
  console.warn(`fakehands canvas test skipped: the npm registry cannot be reached (${error.message.split('\n')[0]})`);
  return null;
});

describe.skipIf(!canvasDir)('fakehands canvas', () => {
  let proc: ChildProcess | undefined;
  afterAll(() => {
    proc?.kill();
  });

  it('serves Agent Canvas with the agent host as local backend and the app server as cloud backend', async () => {
    proc = spawn(process.execPath, [BIN, 'canvas', '--port', '0', '--canvas-port', '0', '--quiet'], {
      env: { ...process.env, FAKEHANDS_CACHE_DIR: join(ROOT, '.cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d;
    });
    const line = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fakehands canvas did not start: ${err}`)), 120_000);
      proc!.stdout!.on('data', (d: Buffer) => {
        out += d;
        const match =
          /^Agent Canvas on fakehands: (http:\/\/\S+) \(local backend: the agent host (http:\/\/\S+); cloud backend: the app server (http:\/\/[^)\s]+)\)$/m.exec(
            out,
          );
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      });
    });
    const [, page, agent, app] = line;
    // Offline by default, and it says so: the page's answers let it reach loopback hosts only.
    await new Promise<void>((resolve) => {
      const check = () => (out.includes('\noffline: ') ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(out).toContain(
      '\noffline: the page reaches only this machine (no web fonts, icons, telemetry or version checks; --online lets it out)\n',
    );
    const served = await fetch(`${page}/conversations`);
    expect(served.headers.get('content-security-policy')).toMatch(/^default-src 'self' http:\/\/127\.0\.0\.1:\* /);
    const html = await served.text();
    expect(html).toContain('window.__AGENT_CANVAS_SESSION_API_KEY__');
    expect(html).toContain(JSON.stringify(app));
    expect(html).toContain('"kind":"cloud"');
    // The local backend's prefixes reach the agent host through the page's origin.
    const info = await fetch(`${page}/server_info`);
    expect(info.status).toBe(200);
    const direct = await (await fetch(`${agent}/server_info`)).json();
    expect(await info.json()).toEqual(direct);
    // The automation service is not served: a clear 404.
    const automation = await fetch(`${page}/api/automation/health`);
    expect(automation.status).toBe(404);
    expect(await automation.json()).toEqual({ detail: 'No automation service behind fakehands (out of scope)' });
    // Its list, which the home page reads on a local backend and toasts when it fails, stands in empty
    // (build/assets/home-*.js: the recommended-automations launcher's useAutomations; AutomationsResponse).
    const list = await fetch(`${page}/api/automation/v1?limit=50&offset=0`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ automations: [], total: 0 });
    // The cloud backend answers as a single-user install.
    const orgs = (await (await fetch(`${app}/api/organizations`)).json()) as {
      items: { is_personal: boolean; id: string }[];
      current_org_id: string;
    };
    expect(orgs.items).toHaveLength(1);
    expect(orgs.items[0]!.is_personal).toBe(true);
    expect(orgs.current_org_id).toBe(orgs.items[0]!.id);
  }, 180_000);
});
