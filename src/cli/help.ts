/** What `fakehands --help` and `fakehands serve --help` print. */
import { CONFIG_FILE, SERVE_FLAGS, VERSION } from './options.js';

/** The commands of `fakehands`, each with its one line (what `fakehands --help` lists first). */
const COMMANDS = [
  ['serve', 'Serve the fake API and the agent host on localhost (the default command)'],
  ['verify', 'Verify the Pact contracts against a running implementation (the fake or a real server)'],
  ['drift', "Compare the fake's OpenAPI document with a provider's, operation by operation"],
  ['llm', 'Serve the scripted LLM (OpenAI and Anthropic APIs answering from agent scripts) for a real agent server'],
  ['record', 'Record a real app server or agent server session through a proxy (HAR and conversation exports), to serve it offline'],
  ['real', 'Install and start the real OpenHands agent server and app server (pinned, on loopback), for the differential suite'],
  ['canvas', 'Serve Agent Canvas (npm @openhands/agent-canvas, fetched on first use) routed to the fake: local and cloud backends'],
] as const;

/** `fakehands --help`: the commands first, each in one line, then where each command's options are. */
export function helpText(): string {
  return [
    `fakehands ${VERSION}: a stateful fake of the OpenHands Conversation and Sandbox Service`,
    '',
    'Usage: fakehands [COMMAND] [options]',
    '',
    'Commands:',
    ...COMMANDS.map(([name, line]) => `  ${name.padEnd(8)} ${line}`),
    '',
    'Run `fakehands COMMAND --help` for the options of a command (`fakehands serve --help`).',
    `\`fakehands serve\` also reads ${CONFIG_FILE} in the working folder (flags and environment variables win).`,
  ].join('\n');
}

/** `fakehands serve --help`: every option, its environment variable, and the config file. */
export function serveHelpText(): string {
  const rows = Object.entries(SERVE_FLAGS).map(([name, o]) => `  --${name.padEnd(12)} ${o.help}${o.env ? ` [${o.env}]` : ''}`);
  return [
    'Usage: fakehands serve [options]',
    '',
    ...rows,
    '',
    `Every option may also be set in ${CONFIG_FILE} in the working folder, keyed by the flag's name`,
    '(`{"port": 3100, "auth": "none"}`); a flag wins over its environment variable, which wins over the file.',
  ].join('\n');
}

/** `fakehands canvas --help`: what it serves, its own option, then every option of `fakehands serve` it takes. */
export function canvasHelpText(defaultCanvasPort: number): string {
  return [
    'Usage: fakehands canvas [--canvas-port PORT] [--online] [options of fakehands serve]',
    '',
    'Serves Agent Canvas (npm @openhands/agent-canvas, fetched on first use into .cache/) routed to the fake:',
    'the agent host as its local backend, the app server as a cloud backend; --auth none unless told otherwise;',
    'offline: the page reaches only this machine (no web fonts, icons or telemetry) unless --online.',
    '',
    `  --${'canvas-port'.padEnd(12)} Port of the Agent Canvas page (default ${defaultCanvasPort}; 0 picks a free one)`,
    `  --${'online'.padEnd(12)} Let the page reach other hosts (web fonts, icons, telemetry); by default it reaches only this machine`,
    // The rows of `fakehands serve --help`, without its config-file lines: canvas reads no config file.
    ...serveHelpText().split('\n').slice(2, -3),
  ].join('\n');
}
