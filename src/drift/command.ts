/**
 * The `fakehands drift` command: `--spec FILE|URL` (repeatable), `--base-url URL`, `--prefix P`
 * (repeatable), `--known FILE` (repeatable), `--min-agreement SHARE`, `--json`. Exit 0 with no undeclared difference
 * (and at least SHARE of the facts agreeing), 1 otherwise, 2 for a bad spec or an unreachable URL.
 */
import { parseArgs } from 'node:util';
import { FakehandsError } from '../domain/store/errors.js';
import { checkDrift, driftPasses, formatReport } from './index.js';
import { readKnownDifferences } from './known-file.js';

/** Help of `fakehands drift`. */
export const DRIFT_HELP = [
  'Usage: fakehands drift --spec FILE|URL [--spec ...] [--base-url URL] [--prefix PATH ...] [--known FILE ...] [--agent] [--min-agreement SHARE] [--json]',
  '',
  "  Compares the fake's OpenAPI document (built in; with --base-url, the one a running fakehands",
  "  serves) with a provider's OpenAPI 3.x documents (several --spec are merged, e.g. V1 and legacy),",
  '  operation by operation: parameters, request and response fields, enums, status codes.',
  '  --prefix: paths whose provider operations the fake must serve (default: /api/v1/app-conversations,',
  '  /api/v1/sandboxes, /api/v1/sandbox-specs, /api/v1/conversation, /api/v1/conversations).',
  "  --agent: compare the agent server behind conversation_url with the agent server's document.",
  '  --known FILE: your own declared differences, a JSON array of {"operation": "METHOD /path",',
  '  "location", "aspect"?, "reason"}: reported as declared, never failing the check; one that no',
  "  longer matches anything is reported as stale, naming FILE. fakehands' own declarations apply too.",
  "  The fake's operations under paths no given document covers (the legacy routes, with the V1",
  '  document alone) are not compared, and counted in the summary.',
  '  The summary gives the share of facts that agree and the share that differ as declared.',
  '  --min-agreement SHARE: also fail when less than SHARE (0 to 1, e.g. 0.9) of the facts agree,',
  '  however many differences are declared.',
  '  Exit 0: no undeclared difference (and the agreement asked for); 1: otherwise; 2: bad input.',
  '',
  'Usage: fakehands drift --asyncapi A B [--json]',
  "  Compares two AsyncAPI documents of the agent server's sockets (files or URLs, such as",
  '  AGENT_URL/asyncapi.json): kinds added, removed, renamed, fields changed. Exit 0: the same; 1: different.',
].join('\n');

/** Runs `fakehands drift` with `argv` (after the command name); resolves with the exit code. */
export async function runDrift(argv: string[], write: (text: string) => void): Promise<number> {
  if (argv.includes('--asyncapi') && !argv.includes('--help')) return (await import('./asyncapi.js')).runAsyncApiDrift(argv, write);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        spec: { type: 'string', multiple: true },
        known: { type: 'string', multiple: true },
        'base-url': { type: 'string' },
        prefix: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        agent: { type: 'boolean' },
        'min-agreement': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    });
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message);
    throw new FakehandsError(
      'usage',
      `${unknown ? `unknown option ${unknown[1]}` : (error as Error).message.split('\n')[0]} (see fakehands drift --help)`,
    );
  }
  if (parsed.values.help) {
    write(`${DRIFT_HELP}\n`);
    return 0;
  }
  const specs = parsed.values.spec ?? [];
  if (specs.length === 0) throw new FakehandsError('usage', 'drift needs --spec FILE|URL (see fakehands drift --help)');
  const minText = parsed.values['min-agreement'];
  const minAgreement = minText === undefined ? undefined : Number(minText);
  if (minAgreement !== undefined && !(/^(0(\.\d+)?|1(\.0+)?)$/.test(minText!.trim()) && minAgreement >= 0 && minAgreement <= 1))
    throw new FakehandsError(
      'usage',
      `invalid --min-agreement ${JSON.stringify(minText)}: expected a share from 0 to 1, e.g. 0.9 (see fakehands drift --help)`,
    );
  const extraKnown = (await Promise.all((parsed.values.known ?? []).map((file) => readKnownDifferences(file)))).flat();
  const report = await checkDrift({
    specs,
    baseUrl: parsed.values['base-url'],
    prefixes: parsed.values.prefix,
    agent: parsed.values.agent ?? false,
    extraKnown,
  });
  write(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report, minAgreement).join('\n')}\n`);
  return driftPasses(report, minAgreement) ? 0 : 1;
}
