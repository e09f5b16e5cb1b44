/**
 * How each real server is started here (confirmed by running them on this machine kind): the agent
 * server's console script with its `OH_*` settings (openhands-agent-server `config.py`), and the app
 * server under uvicorn with process sandboxes (openhands-ai `app_server/config.py`,
 * `sandbox/process_sandbox_service.py`). Every path lives in the server's temporary folder; nothing
 * but loopback is reached (LiteLLM's price list is read locally, telemetry is off).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-root.js';
import { install, venvBin } from './provision.js';
import { startProcess, type RealServer } from './processes.js';

/** The key the real servers are started with (clients send it as `X-Session-API-Key`). */
export const REAL_SESSION_KEY = 'fakehands-real-session-key';

/** The environment every real server gets: no telemetry, LiteLLM's local price list, a home of its own. */
const COMMON_ENV = {
  HOME: '{dir}/home',
  LITELLM_LOCAL_MODEL_COST_MAP: 'True',
  LITELLM_TELEMETRY: 'False',
  POSTHOG_DISABLED: '1',
  DO_NOT_TRACK: '1',
  PYTHONUNBUFFERED: '1',
  TMUX_TMPDIR: '{dir}/tmux',
};

/** Options of a real server's start. */
export interface RealStartOptions {
  /** Logs a line of progress (installs take minutes the first time). */
  log?: (line: string) => void;
  /** The environment the install reads (`FAKEHANDS_REAL_CACHE`, `FAKEHANDS_PYTHON`). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Installs (once) and starts the real agent server on a free loopback port, with the session key
 * `REAL_SESSION_KEY`, VS Code, the browser and tool preloading off.
 * @example
 * const real = await startRealAgentServer()
 * await fetch(`${real.url}/server_info`)
 * await real.stop()
 */
export async function startRealAgentServer(options: RealStartOptions = {}): Promise<RealServer> {
  await install('agent-server', options);
  return startProcess({
    name: 'agent-server',
    command: join(venvBin('agent-server', options.env), 'agent-server'),
    args: ['--host', '127.0.0.1', '--port', '{port}'],
    env: {
      ...COMMON_ENV,
      OH_SESSION_API_KEYS_0: REAL_SESSION_KEY,
      OH_SECRET_KEY: 'fakehands-real-secret-key-for-tests',
      OH_ENABLE_VSCODE: 'false',
      OH_ENABLE_BROWSER: 'false',
      OH_PRELOAD_TOOLS: 'false',
      OH_CONVERSATIONS_PATH: '{dir}/state/conversations',
      OH_WORKSPACE_PATH: '{dir}/state/project',
      OH_BASH_EVENTS_DIR: '{dir}/state/bash_events',
    },
    folders: ['home', 'tmux', 'state/conversations', 'state/project', 'state/bash_events', 'work'],
    readyPath: '/ready',
    key: REAL_SESSION_KEY,
  });
}

/**
 * Installs (once) and starts the real app server on a free loopback port with process sandboxes
 * (`RUNTIME=process`; each sandbox an agent server child process, started from port 8000 up),
 * `SESSION_API_KEY` set to `REAL_SESSION_KEY`, its SQLite and sandboxes in its temporary folder,
 * webhooks back to itself, git kept off the network. Started through the package's `real/app_server.py`, which
 * says what it changes in memory for process sandboxes to work here.
 */
export async function startRealAppServer(options: RealStartOptions = {}): Promise<RealServer> {
  await install('app-server', options);
  return startProcess({
    name: 'app-server',
    command: join(venvBin('app-server', options.env), 'python'),
    args: [fileURLToPath(packageFile('real/app_server.py')), '{port}'],
    env: {
      ...COMMON_ENV,
      TMPDIR: '{dir}/tmp',
      OH_PERSISTENCE_DIR: '{dir}/persist',
      RUNTIME: 'process',
      SERVE_FRONTEND: 'false',
      SESSION_API_KEY: REAL_SESSION_KEY,
      OH_WEBHOOKS_0_BASE_URL: 'http://127.0.0.1:{port}/api/v1/webhooks',
      OH_ENABLE_VSCODE: 'false',
      OH_ENABLE_VS_CODE: '0',
      OH_PRELOAD_TOOLS: 'false',
      GIT_ALLOW_PROTOCOL: 'file',
    },
    folders: ['home', 'tmux', 'tmp', 'persist'],
    readyPath: '/alive',
    key: REAL_SESSION_KEY,
  });
}

/**
 * Points the real app server's agents at a scripted LLM (`POST /api/v1/settings`, the
 * `agent_settings_diff` 1.11.0 takes): its conversations then run offline.
 */
export async function useScriptedLlm(app: RealServer, llmUrl: string): Promise<void> {
  const response = await fetch(`${app.url}/api/v1/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Session-API-Key': REAL_SESSION_KEY },
    body: JSON.stringify({
      agent_settings_diff: { llm: { model: 'openai/fakehands', base_url: `${llmUrl}/v1`, api_key: 'sk-fakehands', num_retries: 0 } },
    }),
  });
  if (response.status !== 200) throw new Error(`the real app server refused its LLM settings: ${response.status} ${await response.text()}`);
}
