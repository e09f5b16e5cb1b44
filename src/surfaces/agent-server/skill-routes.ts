/**
 * The agent server's tools (`tool_router.py`), skills (`skills_router.py`), plugins
 * (`plugins_router.py`), hooks (`hooks_router.py`) and sub-agents (`sub_agents_router.py`): what
 * an agent can be given. Host-wide routes (`host-wide.ts`), part of `world-routes.ts`'s table, in
 * its order. Each route names the real function it copies.
 */
import * as z from 'zod/mini';
import {
  getInstalledSkill,
  getInstalledPlugin,
  installedPlugins,
  installPlugin,
  setPluginEnabled,
  uninstallPlugin,
  installedSkills,
  installSkill,
  loadedHooks,
  loadedPlugins,
  loadedSkills,
  pluginsMarketplace,
  setSkillEnabled,
  skillsMarketplace,
  subAgents,
  TOOLS,
  uninstallSkill,
} from '../../domain/agent-world/catalogues.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';

const Json = z.record(z.string(), z.unknown());
const SkillParam = z.object({ name: z.string() });
const InstalledSkill = z.looseObject({
  name: z.string(),
  enabled: z.boolean(),
  source: z.string(),
  installed_at: z.string(),
  install_path: z.string(),
});
/** The tool, skill, plugin, hook and sub-agent routes (spread into `worldRoutes`, `world-routes.ts`). */
export const skillRoutes: readonly Route[] = hostWide([
  // ── Tools, skills, plugins, hooks, sub-agents ──
  defineRoute({
    method: 'GET',
    path: '/api/tools/',
    summary: 'The registered tools (tool_router.py, list_available_tools)',
    response: z.array(z.string()),
    handle: async () => [...TOOLS],
  }),
  defineRoute({
    method: 'POST',
    path: '/api/skills',
    summary: 'The skills the agent would load (skills_router.py, get_skills)',
    body: z.looseObject({
      load_public: z.optional(z.boolean()),
      load_user: z.optional(z.boolean()),
      load_project: z.optional(z.boolean()),
      load_org: z.optional(z.boolean()),
      project_dir: z.optional(z.nullable(z.string())),
    }),
    bodyOptional: true,
    response: z.object({ skills: z.array(z.looseObject({ name: z.string() })), sources: z.record(z.string(), z.int()) }),
    handle: ({ body }, context) => context.runner.run(loadedSkills, body ?? {}),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/skills/sync',
    summary: 'Refresh the public skills (skills_router.py, sync_skills)',
    response: z.object({ status: z.enum(['success', 'error']), message: z.string() }),
    bodyOptional: true,
    body: z.optional(Json),
    handle: async () => ({ status: 'success' as const, message: 'Public skills are up to date' }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/skills/install',
    summary: 'Install a skill of the marketplace (skills_router.py, install_skill)',
    body: z.object({
      source: z.string(),
      ref: z.optional(z.nullable(z.string())),
      repo_path: z.optional(z.nullable(z.string())),
      force: z._default(z.boolean(), false),
    }),
    response: InstalledSkill,
    errors: [400, 409],
    handle: ({ body }, context) => context.runner.run(installSkill, body.repo_path ?? body.source, body.force),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/skills/installed',
    summary: 'The installed skills (skills_router.py, list_installed_skills)',
    response: z.object({ skills: z.array(InstalledSkill) }),
    handle: (_i, context) => context.runner.run(installedSkills),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/skills/installed/:name',
    summary: 'One installed skill (skills_router.py, get_installed_skill)',
    params: SkillParam,
    response: InstalledSkill,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(getInstalledSkill, params.name),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/skills/installed/:name',
    summary: 'Enable or disable an installed skill (skills_router.py, update_skill_state)',
    params: SkillParam,
    body: z.object({ enabled: z.boolean() }),
    response: z.object({ name: z.string(), enabled: z.boolean() }),
    errors: [404],
    handle: ({ params, body }, context) => context.runner.run(setSkillEnabled, params.name, body.enabled),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/skills/installed/:name',
    summary: 'Uninstall a skill (skills_router.py, uninstall_skill)',
    params: SkillParam,
    response: z.object({ message: z.string() }),
    errors: [404],
    handle: ({ params }, context) => context.runner.run(uninstallSkill, params.name),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/skills/installed/:name/refresh',
    summary: 'Update an installed skill from its source (skills_router.py, refresh_skill)',
    params: SkillParam,
    response: z.object({ message: z.string(), skill: InstalledSkill }),
    errors: [404],
    handle: ({ params }, context) =>
      context.runner.run((state) => {
        const skill = getInstalledSkill(state, params.name);
        return 'reason' in skill ? skill : { message: `Skill '${params.name}' is up to date`, skill };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/skills/marketplace',
    summary: 'The skills one can install (skills_router.py, get_marketplace)',
    response: z.object({ skills: z.array(Json) }),
    handle: async () => skillsMarketplace(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/plugins',
    summary: 'The plugins the agent would load (plugins_router.py, get_plugins)',
    body: z.optional(Json),
    bodyOptional: true,
    response: z.object({ plugins: z.array(z.looseObject({ name: z.string() })) }),
    handle: (_i, context) => context.runner.run(loadedPlugins),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/plugins/installed',
    summary: 'The installed plugins (plugins_router.py, list_installed_plugins)',
    response: z.object({ plugins: z.array(Json) }),
    handle: (_i, context) => context.runner.run(installedPlugins),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/plugins/install',
    summary: 'Install a plugin of the marketplace (plugins_router.py, install_plugin)',
    body: z.object({
      source: z.string(),
      ref: z.optional(z.nullable(z.string())),
      repo_path: z.optional(z.nullable(z.string())),
      force: z._default(z.boolean(), false),
    }),
    response: InstalledSkill,
    errors: [400, 409],
    handle: ({ body }, context) => context.runner.run(installPlugin, body.repo_path ?? body.source, body.force),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/plugins/installed/:name',
    summary: 'One installed plugin (plugins_router.py, get_installed_plugin)',
    params: SkillParam,
    response: InstalledSkill,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(getInstalledPlugin, params.name),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/plugins/installed/:name',
    summary: 'Enable or disable an installed plugin (plugins_router.py, update_plugin_state)',
    params: SkillParam,
    body: z.object({ enabled: z.boolean() }),
    response: z.object({ name: z.string(), enabled: z.boolean() }),
    errors: [404],
    handle: ({ params, body }, context) => context.runner.run(setPluginEnabled, params.name, body.enabled),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/plugins/installed/:name',
    summary: 'Uninstall a plugin (plugins_router.py, uninstall_plugin)',
    params: SkillParam,
    response: z.object({ message: z.string() }),
    errors: [404],
    handle: ({ params }, context) => context.runner.run(uninstallPlugin, params.name),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/plugins/installed/:name/refresh',
    summary: 'Update an installed plugin from its source (plugins_router.py, refresh_plugin)',
    params: SkillParam,
    response: z.object({ message: z.string(), plugin: InstalledSkill }),
    errors: [404],
    handle: ({ params }, context) =>
      context.runner.run((state) => {
        const plugin = getInstalledPlugin(state, params.name);
        return 'reason' in plugin ? plugin : { message: `Plugin '${params.name}' is up to date`, plugin };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/plugins/marketplace',
    summary: 'The plugins one can install (plugins_router.py, get_plugins_marketplace)',
    response: z.object({ plugins: z.array(Json) }),
    handle: async () => pluginsMarketplace(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/hooks',
    summary: "The hooks of a project: none on the fake's host (hooks_router.py, get_hooks)",
    body: z.optional(z.object({ project_dir: z.optional(z.nullable(z.string())) })),
    bodyOptional: true,
    response: z.object({ hook_config: z.nullable(Json) }),
    handle: async () => loadedHooks(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/sub-agents',
    summary: 'The sub-agents the agent may delegate to (sub_agents_router.py, get_sub_agents)',
    body: z.optional(z.looseObject({ load_builtin: z.optional(z.boolean()) })),
    bodyOptional: true,
    response: z.object({ agents: z.array(z.looseObject({ name: z.string() })) }),
    handle: async ({ body }) => subAgents(body ?? {}),
  }),
]);
