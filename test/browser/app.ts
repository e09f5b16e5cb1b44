/**
 * A page that uses `fakehands/browser`, as a web app in development would; bundled for the browser
 * by the Chromium tests. It exposes the fake to the test as `window.__fake`.
 */
import { startFakeWorker } from '../../src/browser.js';

const params = new URLSearchParams(location.search);
const { fake } = await startFakeWorker({
  baseUrl: location.origin,
  apiKey: params.get('key') ?? 'browser-key',
  auth: 'all',
  clock: 'manual',
  seed: Number(params.get('seed') ?? 1),
  fixture: params.get('fixture') ?? 'empty',
  checkResponses: true,
  persist: params.get('persist') === '1' ? 'localStorage' : false,
  // The agent host on an origin of its own: the worker answers its REST, msw's ws.link its socket.
  ...(params.get('agent') === '1' ? { agentUrl: 'http://agent.localhost:3001' } : {}),
});
Object.assign(window, { __fake: fake, __ready: true });
