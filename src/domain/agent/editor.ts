/**
 * The fake's stand-in for a sandbox's VS Code: no editor runs in the fake, so the `VSCODE` exposed
 * URL (and `GET /api/vscode/url`) leads to a small page on the agent host that says so, instead of
 * a port nobody listens on. The URL has the real one's form (the app server's
 * `docker_sandbox_service.py`, `_container_to_sandbox_info`: `{base}/?tkn={token}&folder={working
 * dir}`; the agent server's `vscode_router.py`, `get_vscode_url`), its token derived from the
 * sandbox's id, never its session key (a secret the real one puts there). A module of its own, so
 * the sandbox views (every request) need nothing of the agent server.
 */
import type { SandboxRecord } from '../../schemas/records.js';
import { hashOf } from '../store/ids.js';
import { refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** Where the agent host serves the editor page (a path the real agent server does not have). */
export const EDITOR_PATH = '/_fakehands/vscode/';

/** The sandbox's VS Code connection token: derived from its id, never from its session key (a secret). */
export function vscodeToken(sandbox: SandboxRecord): string {
  return `vsc-${hashOf(sandbox.id).toString(16).padStart(8, '0')}`;
}

/** Where a sandbox's VS Code answers: the editor page on the fake's agent host when it serves one, else the sandbox's own VS Code port. */
export function vscodeBase(state: DomainState, sandbox: SandboxRecord): string {
  return state.options.agentUrl
    ? `${state.options.agentUrl.replace(/\/+$/, '')}${EDITOR_PATH.slice(0, -1)}`
    : `http://localhost:${sandbox.agent_port + 1}`;
}

/**
 * The VS Code URL of a sandbox: `{base}/?tkn={token}&folder={folder}` (`base` defaults to `vscodeBase`).
 * @example
 * vscodeUrl(state, sandbox, '/workspace/project') // 'http://localhost:8000/_fakehands/vscode/?tkn=vsc-1a2b3c4d&folder=/workspace/project'
 */
export function vscodeUrl(state: DomainState, sandbox: SandboxRecord, folder: string, base = vscodeBase(state, sandbox)): string {
  return `${base.replace(/\/+$/, '')}/?tkn=${vscodeToken(sandbox)}&folder=${folder}`;
}

/**
 * The sandbox whose editor `token` opens: a RUNNING one; `unavailable` for one that is not running
 * (its container is down: the connection drops), `forbidden` for a token no sandbox has.
 */
export function editorSandbox(state: DomainState, token: string | undefined): SandboxRecord | Refusal {
  const sandbox = token ? state.store.sandboxes.all().find((s) => vscodeToken(s) === token) : undefined;
  if (!sandbox) return refuse('forbidden', 'Forbidden');
  return state.settledNow(sandbox).status === 'RUNNING' ? sandbox : refuse('unavailable', 'The sandbox of this editor is not running');
}
