import { describe, expect, it } from 'vitest';
import type { SandboxSpecInfo } from '../../src/schemas/sandbox-spec.js';
import { call, useFake } from '../support/api.js';

useFake();

describe('GET /api/v1/sandbox-specs/search', () => {
  it('lists the sandbox specs with every field', async () => {
    const { status, body } = await call<{ items: SandboxSpecInfo[]; next_page_id: string | null }>('GET', '/api/v1/sandbox-specs/search');
    expect(status).toBe(200);
    expect(body.next_page_id).toBeNull();
    expect(body.items.map((s) => s.id).sort()).toEqual([
      'ghcr.io/openhands/agent-server:1.1.0-golang',
      'ghcr.io/openhands/agent-server:1.1.0-java',
      'ghcr.io/openhands/agent-server:1.1.0-python',
    ]);
    expect(body.items[0]).toEqual({
      id: expect.any(String),
      command: ['--port', '8000'],
      created_at: expect.stringMatching(/Z$/),
      initial_env: expect.objectContaining({ LOG_JSON: 'true' }),
      working_dir: '/home/openhands/workspace',
    });
  });

  it('pages with limit and next_page_id', async () => {
    const first = (await call<{ items: SandboxSpecInfo[]; next_page_id: string | null }>('GET', '/api/v1/sandbox-specs/search?limit=2'))
      .body;
    expect(first.items).toHaveLength(2);
    expect(first.next_page_id).toBe('2');
    const second = (
      await call<{ items: SandboxSpecInfo[]; next_page_id: string | null }>('GET', '/api/v1/sandbox-specs/search?limit=2&page_id=2')
    ).body;
    expect(second.items).toHaveLength(1);
    expect(second.next_page_id).toBeNull();
  });

  it('starts from the first page for a page_id that is not an integer, as the real services do (docker_sandbox_service.py, search_sandboxes)', async () => {
    const first = await call('GET', '/api/v1/sandbox-specs/search?limit=1');
    expect(await call('GET', '/api/v1/sandbox-specs/search?limit=1&page_id=abc')).toMatchObject({ status: 200, body: first.body });
  });
});

describe('GET /api/v1/sandbox-specs', () => {
  it('answers an array aligned with the ids, null for each missing one', async () => {
    const { body } = await call<(SandboxSpecInfo | null)[]>(
      'GET',
      `/api/v1/sandbox-specs?id=nope&id=${encodeURIComponent('ghcr.io/openhands/agent-server:1.1.0-java')}`,
    );
    expect(body.map((s) => s?.id ?? null)).toEqual([null, 'ghcr.io/openhands/agent-server:1.1.0-java']);
  });
});
