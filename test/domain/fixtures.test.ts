import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FakehandsError, createFake, generateFixture } from '../../src/index.js';
import { DEFAULT_FIXTURE_OPTIONS } from '../../src/domain/fixtures/generate.js';
import { Fixture } from '../../src/schemas/fixture.js';

const readJson = async (name: string) =>
  JSON.parse(await readFile(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8')) as unknown;

describe('fixtures/default.json', () => {
  it('is valid and holds a realistic mix: every sandbox status, V0 and V1, every trigger, finished and running start tasks', async () => {
    const fixture = Fixture.parse(await readJson('default'));
    expect(new Set(fixture.sandboxes.map((s) => s.status))).toEqual(new Set(['STARTING', 'RUNNING', 'PAUSED', 'ERROR']));
    const sandboxIds = new Set(fixture.sandboxes.map((s) => s.id));
    expect(fixture.conversations.some((c) => !sandboxIds.has(c.sandbox_id))).toBe(true); // MISSING
    expect(new Set(fixture.conversations.map((c) => c.version))).toEqual(new Set(['V0', 'V1']));
    expect(new Set(fixture.conversations.map((c) => c.trigger)).size).toBe(11);
    expect(fixture.conversations.some((c) => c.parent_conversation_id !== null)).toBe(true);
    expect(new Set(fixture.start_tasks.map((t) => t.status))).toEqual(new Set(['READY', 'ERROR', 'WAITING_FOR_SANDBOX']));
    expect(fixture.sandbox_specs.length).toBeGreaterThanOrEqual(3);
  });

  it('is what `npm run fixtures` writes, so it can be regenerated', async () => {
    expect(await readJson('default')).toEqual(JSON.parse(JSON.stringify(generateFixture(DEFAULT_FIXTURE_OPTIONS))));
  });

  it('loads, and its in-progress start task becomes READY as time passes', async () => {
    const fake = await createFake();
    const waiting = (await fake.snapshot()).start_tasks.find((t) => t.status === 'WAITING_FOR_SANDBOX')!;
    fake.clock.advance(60_000);
    expect((await fake.snapshot()).start_tasks.find((t) => t.id === waiting.id)!.status).toBe('READY');
  });
});

describe('fixtures/empty.json', () => {
  it('holds only the default sandbox spec, like a fresh install', async () => {
    const fake = await createFake({ fixture: 'empty' });
    const snapshot = await fake.snapshot();
    expect(snapshot.sandbox_specs).toHaveLength(1);
    expect([snapshot.sandboxes, snapshot.conversations, snapshot.start_tasks]).toEqual([[], [], []]);
  });
});

describe('createFake({ fixture })', () => {
  it('accepts a path to a JSON file', async () => {
    const path = new URL('../../fixtures/empty.json', import.meta.url).pathname;
    expect((await (await createFake({ fixture: path })).snapshot()).sandbox_specs).toHaveLength(1);
  });

  it('rejects a missing file, naming it', async () => {
    await expect(createFake({ fixture: '/nowhere/fixture.json' })).rejects.toThrow(
      'Failed to load the fixture at /nowhere/fixture.json: no such file (a fixture is "default", "empty", or a path to a JSON file). Fix the fixture, or pass fixture: "default" or "empty".',
    );
  });

  it('rejects a bad record with an error naming its path', async () => {
    const fixture = generateFixture({ conversations: 3 });
    (fixture.sandboxes as { status: string }[])[1]!.status = 'SLEEPING';
    await expect(createFake({ fixture })).rejects.toThrow(FakehandsError);
    await expect(createFake({ fixture })).rejects.toThrow(
      /^Failed to load the fixture \(object\): sandboxes\[1\]\.status: Invalid option: expected one of "STARTING"\|"RUNNING"\|"PAUSED"\|"ERROR"/,
    );
  });

  it('rejects a dangling sandbox spec reference and a duplicate id', async () => {
    const dangling = generateFixture({ conversations: 2 });
    dangling.sandboxes![0]!.sandbox_spec_id = 'nope';
    await expect(createFake({ fixture: dangling })).rejects.toThrow('sandboxes[0].sandbox_spec_id: no sandbox spec has the id "nope"');
    const duplicate = generateFixture({ conversations: 2 });
    duplicate.sandboxes![1]!.id = duplicate.sandboxes![0]!.id;
    await expect(createFake({ fixture: duplicate })).rejects.toThrow(/sandboxes\[1\]\.id: the id "oh-agent-server-\w+" is used twice/);
  });
});

describe('generateFixture', () => {
  it('is repeatable for a seed and different for another', () => {
    expect(generateFixture({ conversations: 50, seed: 3 })).toEqual(generateFixture({ conversations: 50, seed: 3 }));
    expect(generateFixture({ conversations: 50, seed: 3 })).not.toEqual(generateFixture({ conversations: 50, seed: 4 }));
  });

  it('makes n conversations, each with its own sandbox, that a fake can load and page through', async () => {
    const fake = await createFake({ fixture: generateFixture({ conversations: 5000, seed: 9 }), auth: 'none' });
    const count = await fake.fetch(new Request('http://localhost:3000/api/v1/app-conversations/count'));
    const snapshot = await fake.snapshot();
    expect(snapshot.conversations).toHaveLength(5000);
    expect(snapshot.sandboxes).toHaveLength(5000);
    expect(await count.json()).toBe(snapshot.conversations.filter((c) => c.version === 'V1').length);
    const deep = await fake.fetch(new Request('http://localhost:3000/api/v1/app-conversations/search?limit=100&page_id=3000'));
    const page = (await deep.json()) as { items: { id: string }[] };
    expect(page.items).toHaveLength(100);
  });
});

describe('the fixtures bundled for the browser', () => {
  it('are the fixtures/ files, made in the page, with the package version (npm run fixtures writes both)', async () => {
    const { readFile } = await import('node:fs/promises');
    const { PACKAGE_VERSION } = await import('../../src/browser/fixtures.generated.js');
    const { BUILT_IN_PAGE_FIXTURES } = await import('../../src/browser/default-fixture.js');
    const { BUILT_IN_FIXTURES } = await import('../../src/schemas/faults.js');
    expect(Object.keys(BUILT_IN_PAGE_FIXTURES)).toEqual([...BUILT_IN_FIXTURES]);
    for (const name of BUILT_IN_FIXTURES) {
      // The default one is generated from faker's recorded choices: the same records as the file.
      const file: unknown = JSON.parse(await readFile(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8'));
      expect([name, JSON.parse(JSON.stringify(BUILT_IN_PAGE_FIXTURES[name]!()))]).toEqual([name, file]);
    }
    expect(PACKAGE_VERSION).toBe(
      (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
    );
  });

  it('are in their parsed form, every default written out: a page stores them without their schemas', async () => {
    const { BUILT_IN_PAGE_FIXTURES } = await import('../../src/browser/default-fixture.js');
    for (const make of Object.values(BUILT_IN_PAGE_FIXTURES)) {
      const fixture: unknown = JSON.parse(JSON.stringify(make()));
      expect(JSON.parse(JSON.stringify(Fixture.parse(fixture)))).toEqual(fixture);
    }
  });

  it('fail loudly, naming the command that writes them again, when the recorded choices no longer match the generator', async () => {
    const { replayChooser } = await import('../../src/browser/default-fixture.js');
    const { generateWith, DEFAULT_FIXTURE_OPTIONS } = await import('../../src/domain/fixtures/generate-core.js');
    const { DEFAULT_FIXTURE_SETTINGS } = await import('../../src/browser/fixtures.generated.js');
    expect(() =>
      generateWith(DEFAULT_FIXTURE_OPTIONS, replayChooser(['a word where a pick was recorded']), DEFAULT_FIXTURE_SETTINGS),
    ).toThrow('do not match its generator at draw 0 (run npm run fixtures)');
    expect(() => generateWith(DEFAULT_FIXTURE_OPTIONS, replayChooser([99]), DEFAULT_FIXTURE_SETTINGS)).toThrow('at draw 0');
    expect(() => generateWith(DEFAULT_FIXTURE_OPTIONS, replayChooser([]), DEFAULT_FIXTURE_SETTINGS)).toThrow('at draw 0');
  });
});
