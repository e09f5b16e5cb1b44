/**
 * The catalogues an agent server's installation answers: LLM providers and models
 * (`llm_router.py`), tools (`tool_router.py`), skills (`skills_router.py`), plugins
 * (`plugins_router.py`), hooks (`hooks_router.py`) and sub-agents (`sub_agents_router.py`); the
 * skills and plugins installed on the host are kept in its world (`world.ts`, a record of the store).
 */
import { LLM_MODELS } from '../user/server-config.js';
import { refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { changeWorld, HOME, upsertBy, worldOf, worldRecordOf } from './world.js';

// ── Catalogues ───────────────────────────────────────────────────────────

/** The providers of the models the fake knows, sorted. */
export const llmProviders = () => ({ providers: [...new Set(LLM_MODELS.map((m) => m.split('/')[0]!))].sort() });

/** `GET /api/llm/models?provider=`: every model, or the provider's. */
export const llmModels = (provider: string | undefined) => ({
  models: LLM_MODELS.filter((m) => provider === undefined || m.split('/')[0] === provider),
});

/** `GET /api/llm/models/verified`: provider → the verified model names. */
export const verifiedModels = () => ({
  models: {
    anthropic: ['claude-opus-4-1-20250805', 'claude-sonnet-4-5-20250929'],
    openai: ['gpt-5-2025-08-07', 'gpt-5-mini-2025-08-07'],
    openhands: ['claude-sonnet-4-5-20250929', 'gpt-5-2025-08-07', 'devstral-medium-2507'],
    mistral: ['devstral-medium-2507'],
  },
});

/** `GET /api/tools/`: the registered tools. */
export const TOOLS: readonly string[] = Object.freeze([
  'browser_tool_set',
  'file_editor',
  'glob',
  'grep',
  'planning_file_editor',
  'task_tracker',
  'terminal',
]);

const SKILLS = [
  { name: 'github', description: 'Work with GitHub repositories, issues and pull requests.', triggers: ['github', 'git'] },
  { name: 'docker', description: 'Build and run containers.', triggers: ['docker', 'container'] },
  { name: 'kubernetes', description: 'Deploy to a Kubernetes cluster.', triggers: ['kubernetes', 'k8s'] },
  { name: 'code-review', description: 'Review a change for bugs and style.', triggers: ['/codereview'] },
];

/** `POST /api/skills`: the skills the agent would load, and how many came from each source. */
export function loadedSkills(state: DomainState, request: { load_public?: boolean | undefined }) {
  const world = worldOf(state);
  const installed = SKILLS.filter((s) => world.skills.get(s.name) === true);
  const publicOnes = request.load_public === false ? [] : SKILLS.filter((s) => !world.skills.has(s.name));
  const skills = [...installed.map((s) => ({ ...s, source: 'installed' })), ...publicOnes.map((s) => ({ ...s, source: 'public' }))].map(
    (s) => ({
      name: s.name,
      type: 'knowledge',
      content: `# ${s.name}\n\n${s.description}`,
      triggers: s.triggers,
      source: s.source,
      description: s.description,
      is_agentskills_format: true,
    }),
  );
  return { skills, sources: { installed: installed.length, public: publicOnes.length } };
}

const installedSkill = (name: string, enabled: boolean) => {
  const skill = SKILLS.find((s) => s.name === name)!;
  return {
    name,
    version: '1.0.0',
    description: skill.description,
    enabled,
    source: `github:OpenHands/extensions`,
    resolved_ref: 'main',
    repo_path: `skills/${name}`,
    installed_at: '2025-10-01T09:00:00+00:00',
    install_path: `${HOME}/.openhands/skills/installed/${name}`,
  };
};

/** `GET /api/skills/installed`. */
export const installedSkills = (state: DomainState) => ({
  skills: [...worldOf(state).skills].map(([name, enabled]) => installedSkill(name, enabled)),
});

/** `GET /api/skills/installed/{name}`: 404 when it is not installed. */
export function getInstalledSkill(state: DomainState, name: string) {
  const enabled = worldOf(state).skills.get(name);
  return enabled === undefined ? refuse('not_found', `Skill '${name}' is not installed`) : installedSkill(name, enabled);
}

/** `PATCH /api/skills/installed/{name}`. */
export function setSkillEnabled(state: DomainState, name: string, enabled: boolean) {
  if (!worldOf(state).skills.has(name)) return refuse('not_found', `Skill '${name}' is not installed`);
  changeWorld(state, { skills: upsertBy(worldRecordOf(state).skills, (s) => s.name, { name, enabled }) });
  return { name, enabled };
}

/** `DELETE /api/skills/installed/{name}`. */
export function uninstallSkill(state: DomainState, name: string) {
  if (!worldOf(state).skills.has(name)) return refuse('not_found', `Skill '${name}' is not installed`);
  changeWorld(state, { skills: worldRecordOf(state).skills.filter((s) => s.name !== name) });
  return { message: `Skill '${name}' uninstalled` };
}

/** `POST /api/skills/install`: a skill of the marketplace by its source (`github:owner/repo` or its name). */
export function installSkill(state: DomainState, source: string, force: boolean) {
  const name = source
    .split('/')
    .pop()!
    .replace(/^github:/, '');
  const skill = SKILLS.find((s) => s.name === name);
  // A source the fake cannot fetch (skills_router.py, install_skill: 400).
  if (!skill) return refuse('bad_request', 'Failed to fetch skill source. Check that the source is valid.');
  if (worldOf(state).skills.has(name) && !force) return refuse('conflict', `Skill '${name}' is already installed`);
  changeWorld(state, { skills: upsertBy(worldRecordOf(state).skills, (s) => s.name, { name, enabled: true }) });
  return installedSkill(name, true);
}

/** `GET /api/skills/marketplace`. */
export const skillsMarketplace = () => ({
  skills: SKILLS.map((s) => ({
    name: s.name,
    description: s.description,
    source: `github:OpenHands/extensions`,
    repo_path: `skills/${s.name}`,
  })),
});

/** The plugins of the fake's marketplace (`github:OpenHands/extensions`). */
export const PLUGINS = [
  { name: 'code-review', description: 'Review pull requests with a checklist.' },
  { name: 'release-notes', description: 'Write release notes from merged pull requests.' },
];

const installedPlugin = (name: string, enabled: boolean) => ({
  name,
  version: '1.0.0',
  description: PLUGINS.find((p) => p.name === name)?.description ?? '',
  enabled,
  source: 'github:OpenHands/extensions',
  resolved_ref: 'main',
  repo_path: `plugins/${name}`,
  installed_at: '2025-10-01T09:00:00+00:00',
  install_path: `${HOME}/.openhands/plugins/installed/${name}`,
  skills: [],
  files: ['plugin.json'],
});

/** `POST /api/plugins`: the plugins the agent would load. */
export const loadedPlugins = (state: DomainState) => ({
  plugins: [...worldOf(state).plugins]
    .filter(([, enabled]) => enabled)
    .map(([name]) => ({
      name,
      version: '1.0.0',
      description: PLUGINS.find((p) => p.name === name)?.description ?? '',
      path: `${HOME}/.openhands/plugins/installed/${name}`,
      skills: [],
      files: ['plugin.json'],
    })),
});

/** `GET /api/plugins/installed`. */
export const installedPlugins = (state: DomainState) => ({
  plugins: [...worldOf(state).plugins].map(([name, enabled]) => installedPlugin(name, enabled)),
});

/** `GET /api/plugins/marketplace`. */
export const pluginsMarketplace = () => ({
  plugins: PLUGINS.map((p) => ({
    name: p.name,
    description: p.description,
    source: 'github:OpenHands/extensions',
    repo_path: `plugins/${p.name}`,
  })),
});

/** `POST /api/hooks`: no hooks are configured on the fake's host. */
export const loadedHooks = () => ({ hook_config: null });

/** `POST /api/sub-agents`: the built-in sub-agents. */
export const subAgents = (request: { load_builtin?: boolean | undefined }) => ({
  agents:
    request.load_builtin === false
      ? []
      : [
          {
            name: 'explore',
            description: 'Read the code base and answer questions about it.',
            model: 'inherit',
            color: null,
            tools: ['terminal', 'glob', 'grep'],
            skills: [],
            system_prompt: '',
            when_to_use_examples: [],
            permission_mode: null,
            max_iteration_per_run: null,
            max_budget_per_run: null,
            mcp_config: null,
            mcp_servers: null,
            profile_store_dir: null,
            hooks: null,
            condenser: null,
            metadata: {},
            level: null,
            source: null,
            is_builtin: true,
          },
        ],
});

/** `GET /api/plugins/installed/{name}`: 404 when it is not installed. */
export function getInstalledPlugin(state: DomainState, name: string) {
  const enabled = worldOf(state).plugins.get(name);
  return enabled === undefined ? refuse('not_found', `Plugin '${name}' is not installed`) : installedPlugin(name, enabled);
}

/** `PATCH /api/plugins/installed/{name}`. */
export function setPluginEnabled(state: DomainState, name: string, enabled: boolean) {
  if (!worldOf(state).plugins.has(name)) return refuse('not_found', `Plugin '${name}' is not installed`);
  changeWorld(state, { plugins: upsertBy(worldRecordOf(state).plugins, (p) => p.name, { name, enabled }) });
  return { name, enabled };
}

/** `DELETE /api/plugins/installed/{name}`. */
export function uninstallPlugin(state: DomainState, name: string) {
  if (!worldOf(state).plugins.has(name)) return refuse('not_found', `Plugin '${name}' is not installed`);
  changeWorld(state, { plugins: worldRecordOf(state).plugins.filter((p) => p.name !== name) });
  return { message: `Plugin '${name}' uninstalled` };
}

/** `POST /api/plugins/install`: a plugin of the marketplace by its source or `repo_path`. */
export function installPlugin(state: DomainState, source: string, force: boolean) {
  const name = source
    .split('/')
    .pop()!
    .replace(/^github:/, '');
  // A source the fake cannot fetch (plugins_router.py, install_plugin: 400).
  if (!PLUGINS.some((p) => p.name === name)) return refuse('bad_request', 'Failed to fetch plugin source. Check that the source is valid.');
  if (worldOf(state).plugins.has(name) && !force) return refuse('conflict', `Plugin '${name}' is already installed`);
  changeWorld(state, { plugins: upsertBy(worldRecordOf(state).plugins, (p) => p.name, { name, enabled: true }) });
  return installedPlugin(name, true);
}
