/**
 * The public API, name by name: what each entry point of the package exports (values and types).
 * A change to these lists is a decision about the package's API, made here on purpose, never by
 * accident: route tables, the route context and the service's internals are not public.
 *
 * Read from what the package ships: each entry's declarations in dist/ (`dist/index.d.ts`, built
 * from `src/index.ts` by the global setup whenever src/ is newer), as a consumer's TypeScript
 * reads them, and its values from the built entries (`fakehands`, `fakehands/drift`).
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { built } from '../support/built.js';

/**
 * One TypeScript program over every entry point's declarations (they share most of their
 * modules): building it is the costly part, so it is built once, on first use, instead of once per
 * entry. Declarations, not sources, and no ambient `@types` but those they import: 4 s of CPU where
 * the sources took 7 (issue 34), for the same names.
 */
let program: ts.Program | undefined;

/** The shipped declarations of an entry module: `src/client/index.ts` → `dist/client/index.d.ts`. */
const declarations = (entry: string) => entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.d.ts');

/** The names an entry module exports, sorted, as the TypeScript checker sees them. */
function exportedNames(entry: string): string[] {
  program ??= ts.createProgram(Object.keys(PUBLIC_NAMES).map(declarations), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(declarations(entry))!;
  const symbol = checker.getSymbolAtLocation(source)!;
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.getName())
    .sort();
}

const PUBLIC_NAMES: Record<string, string[]> = {
  'src/index.ts': [
    'Answer',
    'AnswerBody',
    'AppConversationFilters',
    'BUILT_IN_FIXTURES',
    'CONVERSATION_STATUS_OF_SANDBOX',
    'ChangeListener',
    'ChangedEntity',
    'ChangedState',
    'Clock',
    'DEFAULT_API_KEY',
    'DEFAULT_BASE_URL',
    'Fake',
    'FakeCore',
    'FakeHandler',
    'FakeOptions',
    'FakeOptionsInput',
    'FakeService',
    'FakehandsError',
    'FakehandsErrorCode',
    'Fault',
    'FaultSpecInput',
    'Faults',
    'Fixture',
    'FixtureInput',
    'FixtureOption',
    'GenerateOptions',
    'Har',
    'HarEntry',
    'INSTANT_TIMINGS',
    'Journal',
    'JournalEntry',
    'LlmRequest',
    'LlmRequestRecord',
    'Mount',
    'Mounts',
    'Page',
    'PageRequest',
    'Placement',
    'REALISTIC_TIMINGS',
    'Recording',
    'Refusal',
    'RefusalReason',
    'RequestLike',
    'ResetOptions',
    'ResolvedFakeOptions',
    'SANDBOX_TRANSITIONS',
    'ScriptedLlm',
    'ScriptedLlmOptions',
    'StartTaskFilters',
    'StateChange',
    'Timings',
    'createFake',
    'createFakeCore',
    'createManualClock',
    'createSystemClock',
    'customSecret',
    'defaultGitWorld',
    'generateFixture',
    'gitWorld',
    'llmHandlers',
    'llmOfAgentScripts',
    'parseLlmScripts',
    'repository',
    'schemas',
    'userSettings',
  ],
  'src/server.ts': [
    'CorsPolicy',
    'FakeServer',
    'FakeServerOptions',
    'FakeServers',
    'FakeServersOptions',
    'LlmServer',
    'LlmServerOptions',
    'MAX_BODY_BYTES',
    'MAX_LLM_BODY_BYTES',
    'RequestLogLine',
    'StateFileIo',
    'StateFileWriter',
    'createFakeServer',
    'readStateFile',
    'startFakeServers',
    'startLlmServer',
  ],
  'src/pact.ts': [
    'AGENT_PROVIDER_NAME',
    'CONSUMER_NAME',
    'CONTRACTS_DIR',
    'PROVIDER_NAME',
    'VERIFY_HELP',
    'VerifyConfig',
    'VerifyOptions',
    'VerifyResult',
    'parseVerifyArgs',
    'runVerify',
    'verifyProvider',
  ],
  'src/client/index.ts': [
    'AgentClient',
    'AgentClientOptions',
    'ApiError',
    'AppConversationFilters',
    'AppConversationQuery',
    'Client',
    'ClientOptions',
    'ConversationEvent',
    'LegacyListQuery',
    'Page',
    'PageQuery',
    'StartTaskQuery',
    'WebSocketClass',
    'createAgentClient',
    'createClient',
  ],
  'src/drift/index.ts': [
    'AGENT_DRIFT_PREFIXES',
    'DRIFT_PREFIXES',
    'Difference',
    'DriftOptions',
    'DriftReport',
    'KNOWN_AGENT_DIFFERENCES',
    'KNOWN_DIFFERENCES',
    'KnownDifference',
    'agreement',
    'checkDrift',
    'driftPasses',
    'fakeDocument',
    'formatReport',
    'readKnownDifferences',
  ],
  'src/browser.ts': ['Fake', 'FakeOptionsInput', 'FakeWorker', 'StartFakeWorkerOptions', 'startFakeWorker'],
};
// fakehands/node is the main entry plus its one helper.
PUBLIC_NAMES['src/node.ts'] = [...PUBLIC_NAMES['src/index.ts']!, 'StartedFake', 'startFake'];

describe('the public API', () => {
  it.each(Object.entries(PUBLIC_NAMES))('%s exports exactly the listed names', (entry, names) => {
    expect(exportedNames(entry)).toEqual([...names].sort());
  });

  it('exports every table frozen: writing to one cannot change how every fake behaves', async () => {
    const api = await built('fakehands');
    const drift = await built('fakehands/drift');
    for (const table of [
      api.SANDBOX_TRANSITIONS,
      api.SANDBOX_TRANSITIONS.pause,
      api.CONVERSATION_STATUS_OF_SANDBOX,
      api.INSTANT_TIMINGS,
      api.REALISTIC_TIMINGS,
      api.BUILT_IN_FIXTURES,
      drift.DRIFT_PREFIXES,
      drift.AGENT_DRIFT_PREFIXES,
      drift.KNOWN_DIFFERENCES,
      drift.KNOWN_DIFFERENCES[0],
      drift.KNOWN_AGENT_DIFFERENCES,
    ]) {
      expect(Object.isFrozen(table)).toBe(true);
    }
    expect(() => {
      (api.SANDBOX_TRANSITIONS.pause as Record<string, string>).RUNNING = 'ERROR';
    }).toThrow(TypeError);
  });
});
