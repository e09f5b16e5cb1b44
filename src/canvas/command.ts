/**
 * `fakehands canvas`: the fake and Agent Canvas's pre-built page routed to it, for a frontend
 * developer of Agent Canvas. It serves the whole API like `fakehands serve` (with `--auth none`
 * unless told otherwise: Canvas sends Bearer keys, not the fake's session key), fetches the pinned
 * Agent Canvas from the npm registry on first use (cached under `.cache/`), and serves its page
 * with the agent host as its local backend and the app server as a cloud backend, both registered.
 */
import { fileURLToPath } from 'node:url';
import { canvasHelpText } from '../cli/help.js';
import { parseServeArgs } from '../cli/options.js';
import { serve } from '../cli/serve.js';
import { FakehandsError } from '../domain/store/errors.js';
import { packageFile } from '../package-root.js';
import { startCanvasIngress } from './ingress.js';
import { AGENT_CANVAS_VERSION, ensureAgentCanvas } from './package.js';

/** Default port of Agent Canvas's page: its own static server's. */
export const DEFAULT_CANVAS_PORT = 3001;

/** Runs `fakehands canvas [--canvas-port PORT] [--online] [serve options]` until SIGINT or SIGTERM; resolves with `'help'` after printing `--help`, else `'serving'` once it serves. */
export async function runCanvas(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<'help' | 'serving'> {
  const rest = [...argv];
  let canvasPort = DEFAULT_CANVAS_PORT;
  const at = rest.indexOf('--canvas-port');
  if (at >= 0) {
    const text = rest[at + 1] ?? '';
    if (!/^\d+$/.test(text) || Number(text) > 65535)
      throw new FakehandsError('usage', `invalid --canvas-port ${JSON.stringify(text)}: expected a port number`);
    canvasPort = Number(text);
    rest.splice(at, 2);
  }
  // Offline unless asked: the page reaches loopback hosts only (no web fonts, icons, telemetry or version checks).
  const online = rest.includes('--online');
  if (online) rest.splice(rest.indexOf('--online'), 1);
  if (!rest.includes('--auth') && !env.FAKEHANDS_AUTH) rest.push('--auth', 'none');
  const config = parseServeArgs(rest, env, null, 'canvas');
  if (config === 'help' || config === 'serve-help') {
    out(`${canvasHelpText(DEFAULT_CANVAS_PORT)}\n`);
    return 'help';
  }
  if (config === 'version') throw new FakehandsError('usage', 'fakehands canvas takes no --version (see fakehands --version)');
  const cacheDir = env.FAKEHANDS_CACHE_DIR ?? fileURLToPath(packageFile('.cache/'));
  out(`Agent Canvas ${AGENT_CANVAS_VERSION}: from ${cacheDir} (packed from the npm registry on first use)\n`);
  const dir = await ensureAgentCanvas(cacheDir);
  const { url, agentUrl } = await serve(config);
  // The local backend's key: the session key of a running sandbox (the agent host answers any of them).
  const sandboxes = (await (
    await fetch(`${url}/api/v1/sandboxes/search?limit=100`, { headers: { 'X-Session-API-Key': config.apiKey } })
  ).json()) as { items?: { status: string; session_api_key: string | null }[] };
  const sessionApiKey = sandboxes.items?.find((s) => s.status === 'RUNNING' && s.session_api_key)?.session_api_key ?? config.apiKey;
  const ingress = await startCanvasIngress({
    buildDir: `${dir}/build`,
    agentUrl,
    sessionApiKey,
    cloud: { url, apiKey: config.apiKey },
    port: canvasPort,
    host: config.host,
    offline: !online,
    allowedHosts:
      config.allowedHosts
        ?.split(',')
        .map((h) => h.trim())
        .filter(Boolean) ?? [],
  });
  out(`Agent Canvas on fakehands: ${ingress.url} (local backend: the agent host ${agentUrl}; cloud backend: the app server ${url})\n`);
  out(
    online
      ? 'online (--online): the page may reach other hosts: web fonts, icons, telemetry and version checks\n'
      : 'offline: the page reaches only this machine (no web fonts, icons, telemetry or version checks; --online lets it out)\n',
  );
  return 'serving';
}
