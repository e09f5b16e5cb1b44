/**
 * The built-in showcase: a user message containing `showcase` (when no user script matches it)
 * runs a script of every step kind but `stuck`, so a frontend developer sees every card the agent
 * can publish. It ends with a classified failure (`ConversationErrorEvent`, then `error`).
 */
import { STEP_KINDS, type AgentScript, type StepKind } from '../../schemas/agent-script.js';

/** The word that picks the showcase (case-insensitive). */
export const SHOWCASE_MATCH = 'showcase';

/** The `agent_script` index a conversation's record holds for the showcase (user scripts count from 0). */
export const SHOWCASE_INDEX = -1;

/** The step kinds the showcase leaves out: `stuck` and `fail` both end a run, and it ends with `fail`. */
export const SHOWCASE_SKIPS: readonly StepKind[] = Object.freeze(['stuck']);

/** The showcase script. */
export const SHOWCASE_SCRIPT: AgentScript = Object.freeze({
  match: SHOWCASE_MATCH,
  steps: [
    { hook: { event: 'UserPromptSubmit' as const, command: 'echo checked', blocked: false, stdout: 'checked' } },
    { think: 'The showcase: every card the agent can publish.' },
    {
      task_tracker: {
        tasks: [
          { title: 'Look around', notes: 'glob, grep, terminal', status: 'done' as const },
          { title: 'Change the code', notes: '', status: 'in_progress' as const },
          { title: 'Report', notes: '', status: 'todo' as const },
        ],
      },
    },
    { glob: { pattern: '**/*.md', files: ['README.md'] } },
    { grep: { pattern: 'TODO', include: '*.ts', matches: ['src/index.ts'] } },
    { terminal: { command: 'ls', output: 'README.md\nsrc\n', exit_code: 0 } },
    {
      hook: {
        event: 'PreToolUse' as const,
        command: './check-command.sh',
        blocked: true,
        reason: 'rm -rf is not allowed here',
        stdout: '',
      },
    },
    { error: 'The command was blocked by a hook.' },
    { edit: true as const },
    { str_replace: { path: 'README.md', old_str: 'TODO', new_str: 'DONE' } },
    { plan: '# Plan\n\n1. Look around\n2. Change the code\n3. Report\n' },
    { browser_navigate: { url: 'http://localhost:3000/', new_tab: false } },
    { browser_click: { index: 3, new_tab: false } },
    { browser_type: { index: 5, text: 'hello' } },
    { browser_scroll: { direction: 'down' as const } },
    { browser_get_state: { include_screenshot: true } },
    { browser_get_content: { extract_links: true, start_from_char: 0 } },
    { browser_list_tabs: true as const },
    { browser_switch_tab: { tab_id: '4F2A' } },
    { browser_close_tab: { tab_id: '4F2A' } },
    { browser_go_back: true as const },
    { browser_get_storage: true as const },
    { browser_set_storage: { storage_state: { cookies: [], origins: [] } } },
    { browser_start_recording: true as const },
    { browser_stop_recording: true as const },
    { canvas_ui: { command: 'navigate_to_file' as const, path: 'README.md' } },
    { client_tool: { name: 'open_settings', arguments: { section: 'llm' } } },
    {
      vision_inspect: {
        question: 'What does the screenshot show?',
        image_index: 0,
        profile: 'vision',
        model: 'gpt-4o',
        answer: 'A login form.',
      },
    },
    { mcp: { tool: 'fetch_fetch', arguments: { url: 'https://example.com' }, result: 'Example Domain' } },
    { skill: 'github' },
    { task: { prompt: 'Write the tests for the change.', subagent_type: 'default', description: 'tests', result: 'Two tests written.' } },
    { switch_llm: { profile: 'cheap', model: 'gpt-4o-mini', reason: 'A cheaper model is enough for this.' } },
    { acp_tool_call: { title: 'Read README.md', tool_kind: 'read', status: 'completed', output: '# README' } },
    { llm_log: { model: 'gpt-4o', usage_id: 'default' } },
    { tokens: { prompt: [1, 2, 3], response: [4, 5] } },
    { stats: true as const },
    { condense: { summary: 'The agent looked around and changed README.md.' } },
    { terminal: { command: 'rm -rf build', output: '', exit_code: 0 } },
    { reject: 'Not that command, please.' },
    { pause: true as const },
    { interrupt: true as const },
    { message: 'That was every card of the showcase.' },
    { finish: 'Showcase done.' },
    { fail: { code: 'LLMRateLimitError', detail: 'Showcase: a run ending with a classified error (rate limit).' } },
  ],
});

/** The step kinds the showcase covers (a test holds this equal to every kind but the skipped ones). */
export const SHOWCASE_KINDS: readonly StepKind[] = Object.freeze(
  STEP_KINDS.filter((kind) => SHOWCASE_SCRIPT.steps.some((step) => kind in step)),
);
