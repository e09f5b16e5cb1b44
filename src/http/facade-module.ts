/**
 * The service facade's module (`service-facade.ts`'s `loadDomain`): every domain operation, the
 * scripted agent and the fixture's schemas (`domain/service.ts`), and the contract check of answers
 * (`check.ts`, for the `checkResponses` option) — one module, so a page's bundler makes one later
 * chunk of them and splits the first chunks fewer ways (issue 30: the check as a chunk of its own
 * cost the first chunks 1.1 KB). A page that checks its answers loads the domain with the first one.
 */
export * from '../domain/service.js';
export { checkAnswer } from './check.js';
