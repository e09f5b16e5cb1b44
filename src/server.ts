/**
 * `fakehands/server`: the standalone server over a fake, for running the dev server from code
 * (a test harness, a Playwright global setup). `fakehands serve` is the same, as a command.
 * @example
 * import { createFakeCore } from 'fakehands'
 * import { createFakeServer } from 'fakehands/server'
 * const server = createFakeServer(await createFakeCore({ clock: 'system' }))
 * const url = await server.listen(0, '127.0.0.1')
 */
export { createFakeServer, MAX_BODY_BYTES, type FakeServer, type FakeServerOptions, type RequestLogLine } from './server/http-server.js';
export { startFakeServers, type FakeServers, type FakeServersOptions } from './server/start.js';
export { StateFileWriter, readStateFile, type StateFileIo } from './server/state-file.js';
export type { CorsPolicy } from './server/cors.js';
export { startLlmServer, MAX_LLM_BODY_BYTES, type LlmServer, type LlmServerOptions } from './server/llm-server.js';
