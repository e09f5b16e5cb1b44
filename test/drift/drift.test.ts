/**
 * `fakehands drift`: a document identical to the fake's passes; each kind of difference is
 * detected and named on a mutated copy; bad input exits 2 with a one-line reason.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KnownDifference } from '../../src/drift/index.js';
import { cell } from '../../scripts/docs-reference.js';
import { built } from '../support/built.js';
import { BIN, type RunningCli, eventually, runCli, startCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

// The built `fakehands/drift`, as a consumer imports it.
const { checkDrift, fakeDocument, formatReport, KNOWN_AGENT_DIFFERENCES, KNOWN_DIFFERENCES: APP } = await built('fakehands/drift');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data walked freely

const REAL_V1 = 'test/drift/real-app-server.openapi.json';
const REAL_V0 = 'test/drift/real-app-server-v0.openapi.json';
const REAL_AGENT = 'test/drift/real-agent-server.openapi.json';
const SEARCH = '/api/v1/sandboxes/search';

/** The fake's own document, to mutate: identical to it means no difference at all. */
const own = () => structuredClone(fakeDocument()) as Json;
/** The fields of a sandbox in the fake's search answer. */
const sandboxFields = (doc: Json) => doc.paths[SEARCH].get.responses['200'].content['application/json'].schema.properties.items.items.properties;
/** The lines `fakehands drift` prints for a provider document. */
const driftLines = async (provider: Json, known: KnownDifference[] = []) => formatReport(await checkDrift({ specs: [provider], known }));

/** A port nothing listens on (bound once, then closed). */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function file(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fakehands-drift-'));
  await writeFile(join(dir, name), content);
  return join(dir, name);
}

describe('checkDrift against the fake\'s own document', () => {
  it('finds no difference and counts every fact as agreeing', async () => {
    const report = await checkDrift({ specs: [own()], known: [] });
    expect(report.differences).toEqual([]);
    expect(report.missing).toBe(0);
    expect(report.facts.agree).toBe(report.facts.total);
    expect(report.facts.total).toBeGreaterThan(300);
  });

  it('names a renamed response field (gone on one side, new on the other)', async () => {
    const doc = own();
    const fields = sandboxFields(doc);
    fields.state = fields.status;
    delete fields.status;
    const lines = await driftLines(doc);
    expect(lines).toContain(`GET ${SEARCH} → response items[].state: provider string, fake absent`);
    expect(lines).toContain(`GET ${SEARCH} → response items[].status: provider absent, fake string`);
  });

  it('names a new enum value', async () => {
    const doc = own();
    sandboxFields(doc).status.enum.push('HIBERNATING');
    expect(await driftLines(doc)).toContain(`GET ${SEARCH} → response items[].status (enum): provider also HIBERNATING`);
  });

  it('names a changed type', async () => {
    const doc = own();
    sandboxFields(doc).created_at = { type: 'integer' };
    expect(await driftLines(doc)).toContain(`GET ${SEARCH} → response items[].created_at: provider integer, fake string`);
  });

  it('names a changed nullability, however it is spelled', async () => {
    const doc = own();
    sandboxFields(doc).session_api_key = { type: 'string' };
    expect(await driftLines(doc)).toContain(`GET ${SEARCH} → response items[].session_api_key: provider string, fake string|null`);
    const spelled = own();
    sandboxFields(spelled).session_api_key = { type: ['string', 'null'] };
    sandboxFields(spelled).created_by_user_id = { type: 'string', nullable: true };
    expect((await checkDrift({ specs: [spelled], known: [] })).differences).toEqual([]);
  });

  it('names a new required query parameter', async () => {
    const doc = own();
    doc.paths[SEARCH].get.parameters.push({ name: 'org_id', in: 'query', required: true, schema: { type: 'string' } });
    expect(await driftLines(doc)).toContain(`GET ${SEARCH} → query org_id: provider string, fake absent`);
  });

  it('names a changed parameter bound, and reads an optional query parameter\'s null as no difference', async () => {
    const doc = own();
    const limit = doc.paths[SEARCH].get.parameters.find((p: Json) => p.name === 'limit');
    limit.schema = { anyOf: [{ ...limit.schema, maximum: 50 }, { type: 'null' }] };
    expect(await driftLines(doc)).toContain(`GET ${SEARCH} → query limit (bounds): provider >0 <=50, fake >0 <=100`);
  });

  it('names an operation the provider no longer has, and one the fake does not serve', async () => {
    const doc = own();
    delete doc.paths[SEARCH];
    doc.paths['/api/v1/sandboxes/{sandbox_id}/hibernate'] = { post: { responses: { 200: { description: 'ok' } } } };
    const lines = await driftLines(doc);
    expect(lines).toContain(`GET ${SEARCH} → operation: provider absent, fake served`);
    expect(lines).toContain('POST /api/v1/sandboxes/{sandbox_id}/hibernate → operation: provider served, fake absent');
  });

  it('names a status code the provider declares and the fake does not (extra codes of the fake are fine)', async () => {
    const doc = own();
    doc.paths[SEARCH].get.responses['429'] = { description: 'Too Many Requests' };
    delete doc.paths[SEARCH].get.responses['401'];
    expect((await driftLines(doc)).slice(0, 3)).toEqual([`GET ${SEARCH} → status 429: provider true, fake absent`, '', 'drift: 1 undeclared difference(s) (each fails the check), 0 declared (known, with a reason), 0 stale declaration(s) of yours']);
  });

  it('reports a declared difference as known with its reason, and a declaration that matches nothing as stale', async () => {
    const doc = own();
    sandboxFields(doc).status.enum.push('HIBERNATING');
    const known: KnownDifference[] = [
      { operation: `GET ${SEARCH}`, location: 'response items[].status', aspect: 'enum', reason: 'the fake never hibernates' },
      { operation: 'GET /api/v1/sandbox-specs/search', location: 'response items[].id', reason: 'an old declaration' },
    ];
    const report = await checkDrift({ specs: [doc], known });
    expect(report.differences).toEqual([]);
    expect(report.known).toEqual([expect.objectContaining({ location: 'response items[].status', reason: 'the fake never hibernates' })]);
    expect(report.stale).toEqual([known[1]]);
    expect(formatReport(report)).toContain('stale declaration: GET /api/v1/sandbox-specs/search → response items[].id no longer differs; remove it from your declared differences');
  });
});

describe('checkDrift against the real document', () => {
  it('names a change behind nested $refs (ExposedUrl.port in SandboxInfo in SandboxPage)', async () => {
    const { readFile } = await import('node:fs/promises');
    const real = JSON.parse(await readFile(REAL_V1, 'utf8')) as Json;
    const before = await driftLines(real);
    real.components.schemas.ExposedUrl.properties.port = { type: 'string' };
    const after = await driftLines(real);
    const added = after.filter((line) => !before.includes(line));
    expect(added).toContain(`GET ${SEARCH} → response items[].exposed_urls[].port: provider string, fake integer`);
    expect(before.filter((line) => line.includes('exposed_urls'))).toEqual([]);
  });
});

/**
 * The command's reports and exit codes: most runs are in-process (`runCliInProcess`, what the binary
 * runs before it exits with the code); three run the binary itself, for its exit codes 0, 1 and 2 on
 * stdout and stderr, and a long report written out whole before it exits (issue 34: a drift run is
 * about 1 s of CPU as a process).
 */
describe('fakehands drift', () => {
  /** One `fakehands serve` for the tests that only read the /openapi.json it serves, stopped after them (issue 34). */
  let shared: Promise<RunningCli> | undefined;
  const served = () => (shared ??= startCli(['--quiet'], {}, { forSuite: true }));
  afterAll(async () => {
    if (!shared) return;
    const cli = await shared;
    cli.proc.kill();
    await cli.exited;
  });

  it('exits 0 on the fake\'s own /openapi.json saved to a file', async () => {
    const cli = await served();
    const saved = await file('own.json', await (await fetch(`${cli.url}/openapi.json`)).text());
    const { code, stdout } = await runCli(['drift', '--spec', saved]);
    expect(stdout).toMatch(/drift: 0 undeclared difference\(s\) \(the check passes with 100\.0% of facts agreeing and 0\.0% differing as declared\), 0 declared \(known, with a reason\), 0 stale declaration\(s\) of yours\n  operations: 122 compared, 0 of the provider's not served by the fake\n  facts of the compared operations: (\d+) of \1 agree \(100\.0%\), 0 differ as declared \(0\.0%\), 0 undeclared \(0\.0%\)/);
    expect(stdout).not.toContain('remove it');
    expect(code).toBe(0);
  });

  it('compares the document a running fake serves with --base-url', async () => {
    const cli = await served();
    const doc = own();
    sandboxFields(doc).status.enum.push('HIBERNATING');
    const { code, stdout } = await runCliInProcess(['drift', '--spec', await file('mutated.json', JSON.stringify(doc)), '--base-url', cli.url]);
    expect(stdout).toContain(`GET ${SEARCH} → response items[].status (enum): provider also HIBERNATING`);
    expect(code).toBe(1);
  });

  it('prints the report as JSON with --json', async () => {
    const doc = own();
    delete doc.paths[SEARCH];
    const { code, stdout } = await runCliInProcess(['drift', '--json', '--spec', await file('d.json', JSON.stringify(doc))]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).differences).toEqual([{ operation: `GET ${SEARCH}`, location: 'operation', aspect: 'served', provider: 'absent', fake: 'served' }]);
  });

  it('exits 1 on a mutated copy of the real snapshot, naming the changed field', async () => {
    const { readFile } = await import('node:fs/promises');
    const real = JSON.parse(await readFile(REAL_V1, 'utf8')) as Json;
    real.components.schemas.SandboxStatus.enum.push('HIBERNATING');
    const { code, stdout } = await runCliInProcess(['drift', '--spec', await file('real.json', JSON.stringify(real)), '--spec', REAL_V0]);
    expect(stdout).toContain(`GET ${SEARCH} → response items[].status (enum): provider also HIBERNATING`);
    expect(code).toBe(1);
  });

  it('exits 1 on a difference, its whole report written out first, however slowly its stdout is read', { timeout: 120_000 }, async () => {
    // The --agent report (some 260 KB) is more than a pipe holds: a process that exits once Node has its
    // output, not the pipe, loses the rest. Nothing is read until the output has waited a second or the
    // process has exited, which makes that loss certain instead of a race with the reader.
    const { readFile } = await import('node:fs/promises');
    const real = JSON.parse(await readFile(REAL_AGENT, 'utf8')) as Json;
    // A route the provider serves and the fake does not (a route the fake serves beyond the document
    // is declared from its route table, so deleting one from the document would not do).
    real.paths['/api/conversations/count/all'] = real.paths['/api/conversations/count'];
    const spec = await file('agent.json', JSON.stringify(real));
    const { spawn } = await import('node:child_process');
    const proc = spawn(process.execPath, [BIN, 'drift', '--agent', '--spec', spec], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const closed = new Promise<number | null>((done) => proc.on('close', done));
      let exited = false;
      proc.on('exit', () => {
        exited = true;
      });
      await eventually(() => exited || proc.stdout.readableLength > 0, 90_000);
      const waitingSince = Date.now();
      await eventually(() => exited || Date.now() - waitingSince > 1000, 5000);
      let stdout = '';
      proc.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
      });
      expect(await closed).toBe(1);
      expect(stdout).toContain('GET /api/conversations/count/all → operation: provider served, fake absent\n');
      expect(stdout.length).toBeGreaterThan(100_000);
      expect(stdout).toMatch(/\n {2}facts of the compared operations: \d+ of \d+ agree .*\n( {2}note: .*\n)?$/);
    } finally {
      proc.kill('SIGKILL');
    }
  });

  const bad: [string, () => Promise<string>, RegExp][] = [
    ['a file that is not JSON', () => file('x.json', 'openapi: 3.1.0\n'), /^fakehands: .*x\.json is not JSON \(.*\); fakehands drift reads OpenAPI documents written as JSON\n$/],
    ['a document that is not OpenAPI 3.x', () => file('s.json', '{"swagger": "2.0", "paths": {}}'), /^fakehands: \S*\/s\.json: not an OpenAPI 3\.x document \(its "openapi" field is null; Swagger 2\.0 is not supported\)\n$/],
    ['a $ref cycle', () => file('c.json', JSON.stringify({
      openapi: '3.1.0',
      paths: { [SEARCH]: { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } },
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } },
    })), /^fakehands: \S*\/c\.json: a \$ref cycle at GET \/api\/v1\/sandboxes\/search response: #\/components\/schemas\/A → #\/components\/schemas\/B → #\/components\/schemas\/A\n$/],
    ['a file that does not exist', async () => '/no/such/openapi.json', /^fakehands: cannot read \/no\/such\/openapi\.json: no such file\n$/],
    ['a URL that refuses connections', async () => `http://127.0.0.1:${await closedPort()}/openapi.json`, /^fakehands: cannot fetch http:\/\/127\.0\.0\.1:\d+\/openapi\.json: connection refused\n$/],
  ];

  it.each(bad)('exits 2 with a one-line reason for %s', async (_name, make, message) => {
    const { code, stdout, stderr } = await runCliInProcess(['drift', '--spec', await make()]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toMatch(message);
  });

  it('exits 2 without --spec, and explains itself with --help', async () => {
    expect(await runCli(['drift'])).toEqual({ code: 2, stdout: '', stderr: 'fakehands: drift needs --spec FILE|URL (see fakehands drift --help)\n' });
    const help = await runCliInProcess(['drift', '--help']);
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'Usage: fakehands drift --spec FILE|URL [--spec ...] [--base-url URL] [--prefix PATH ...] [--known FILE ...] [--agent] [--min-agreement SHARE] [--json]']);
  });
});

/** Real operations the fake does not serve yet; any other difference fails CI. */
const NOT_YET_SERVED: string[] = [];

describe('the fake against the committed snapshot of the real service (CI)', () => {
  it('differs only where a difference is declared with its reason, and no declaration is stale', async () => {
    const { code, stdout } = await runCliInProcess(['drift', '--spec', REAL_V1, '--spec', REAL_V0]);
    const lines = stdout.split('\n');
    const summary = lines.find((line) => line.startsWith('drift: '))!;
    const undeclared = lines.filter((line) => line.includes(' → ') && !line.includes('[known: ')
      && !NOT_YET_SERVED.some((operation) => line === `${operation} → operation: provider served, fake absent`));
    // On failure the drift lines are the message, so the CI log shows what drifted.
    expect(undeclared, `fakehands drift found undeclared differences:\n${undeclared.join('\n')}\n${summary}`).toEqual([]);
    expect(lines.filter((line) => line.startsWith('stale declaration')), stdout).toEqual([]);
    expect(summary).toMatch(new RegExp(`^drift: ${NOT_YET_SERVED.length} undeclared difference\\(s\\) \\(.*\\), \\d+ declared \\(known, with a reason\\), 0 stale declaration\\(s\\) of yours$`));
    expect(lines[lines.indexOf(summary) + 1]).toBe(`  operations: 115 compared, ${NOT_YET_SERVED.length} of the provider's not served by the fake`);
    expect(stdout, 'a declaration of src/drift/known-differences.ts matches nothing').not.toContain('did not apply');
    expect(code).toBe(NOT_YET_SERVED.length === 0 ? 0 : 1);
  });

  it('the agent server behind conversation_url differs from the real agent server\'s document only where declared (fakehands drift --agent)', async () => {
    const { code, stdout, stderr } = await runCliInProcess(['drift', '--agent', '--spec', REAL_AGENT]);
    const lines = stdout.split('\n');
    const undeclared = lines.filter((line) => line.includes(' → ') && !line.includes('[known: '));
    expect(undeclared, stdout).toEqual([]);
    expect(lines.filter((line) => line.startsWith('stale declaration')), stdout).toEqual([]);
    expect(lines.find((line) => line.startsWith('drift: ')) ?? `no summary; exit ${code}; stderr: ${stderr}; stdout ${stdout.length} bytes ending ${stdout.slice(-200)}`).toMatch(/^drift: 0 undeclared difference\(s\) \(the check passes with \d+\.\d% of facts agreeing and \d+\.\d% differing as declared\), \d+ declared \(known, with a reason\), 0 stale declaration\(s\) of yours$/);
    expect(lines).toContain('  operations: 44 compared, 0 of the provider\'s not served by the fake');
    expect(stdout).not.toContain('did not apply');
    expect(code).toBe(0);
  });

  it('lists every declared difference with its reason on the reference page of declared differences', async () => {
    const { readFile } = await import('node:fs/promises');
    const KNOWN_DIFFERENCES = [...APP, ...KNOWN_AGENT_DIFFERENCES];
    const page = await readFile('docs/reference/differences.md', 'utf8');
    const table = page.slice(page.indexOf('## Against the published OpenAPI documents'), page.indexOf('## Against the running real servers'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toHaveLength(KNOWN_DIFFERENCES.length);
    for (const known of KNOWN_DIFFERENCES) {
      const row = `| \`${known.operation}\` | \`${known.location}\`${known.aspect ? ` (${known.aspect})` : ''} | ${cell(known.reason)} |`;
      expect(rows, `the page does not list: ${known.operation} → ${known.location}`).toContain(row);
    }
  });
});

describe("the app server's event routes against the published document (issue 32)", () => {
  it('agree on at least 95% of the facts of the events routes: every kind, action, observation and tool with its fields', async () => {
    const { readFile, writeFile, mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const published = JSON.parse(await readFile(REAL_V1, 'utf8')) as { paths: Record<string, unknown> };
    const events = { ...published, paths: Object.fromEntries(Object.entries(published.paths).filter(([path]) => path.includes('/events'))) };
    expect(Object.keys(events.paths).sort()).toEqual([
      '/api/v1/conversation/{conversation_id}/events',
      '/api/v1/conversation/{conversation_id}/events/count',
      '/api/v1/conversation/{conversation_id}/events/search',
    ]);
    const file = join(await mkdtemp(join(tmpdir(), 'fakehands-events-')), 'events.json');
    await writeFile(file, JSON.stringify(events));
    const { stdout } = await runCliInProcess(['drift', '--spec', file]);
    const facts = /facts of the compared operations: (\d+) of (\d+) agree/.exec(stdout);
    expect(facts, stdout).not.toBeNull();
    const [agree, total] = [Number(facts![1]), Number(facts![2])];
    expect(total).toBeGreaterThan(700);
    expect(agree / total).toBeGreaterThanOrEqual(0.95);
    expect(stdout.split('\n').filter((line) => line.includes('/events') && line.includes(' → ') && !line.includes('[known: '))).toEqual([]);
  });
});

describe("the app server's settings routes against the published document (issue 32)", () => {
  it('agree on at least 99% of the facts of the settings routes: the free-form settings payload, every StrictLLM option of a profile, a nullable profile body', async () => {
    const { readFile, writeFile, mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const published = JSON.parse(await readFile(REAL_V1, 'utf8')) as { paths: Record<string, unknown> };
    const settings = { ...published, paths: Object.fromEntries(Object.entries(published.paths).filter(([path]) => path.includes('/settings'))) };
    expect(Object.keys(settings.paths).sort()).toEqual([
      '/api/v1/sandboxes/{sandbox_id}/settings/secrets',
      '/api/v1/sandboxes/{sandbox_id}/settings/secrets/{secret_name}',
      '/api/v1/settings',
      '/api/v1/settings/agent-schema',
      '/api/v1/settings/conversation-schema',
      '/api/v1/settings/profiles',
      '/api/v1/settings/profiles/{name}',
      '/api/v1/settings/profiles/{name}/activate',
      '/api/v1/settings/profiles/{name}/rename',
    ]);
    const file = join(await mkdtemp(join(tmpdir(), 'fakehands-settings-')), 'settings.json');
    await writeFile(file, JSON.stringify(settings));
    const { stdout } = await runCliInProcess(['drift', '--spec', file]);
    const facts = /facts of the compared operations: (\d+) of (\d+) agree/.exec(stdout);
    expect(facts, stdout).not.toBeNull();
    const [agree, total] = [Number(facts![1]), Number(facts![2])];
    expect(total).toBeGreaterThan(250);
    expect(agree / total).toBeGreaterThanOrEqual(0.99);
    const settingsLines = stdout.split('\n').filter((line) => line.includes('/settings') && line.includes(' → '));
    // The one fact left: the real route answers 500 when its store fails; the fake's store does not fail.
    expect(settingsLines.map((line) => line.split(' [known: ')[0])).toEqual(['POST /api/v1/settings → status 500: provider true, fake absent']);
  });
});
