/**
 * Masking by place (src/domain/store/redact.ts, redact-positions.ts): in an MCP server, what sits
 * where a secret goes is masked whatever it is called, as the real agent server masks a server's
 * `headers` and `env` whole (openhands/sdk/mcp/config.py, `MCPServer._serialize_secret_mapping`,
 * every value `**********`) and an `auth` credential's `value`; the fake also masks the URL's
 * userinfo, query and fragment values and the values of flags in `args`, which the real one
 * answers as given. Shapes stay as they were: only values change.
 */
import { describe, expect, it } from 'vitest';
import { MAX_MASKED_PAIRS, maskArgs, maskUrl, unmaskedUrl } from '../../src/domain/store/redact-positions.js';
import {
  REDACTED,
  redactAtLocation,
  redactMcpConfig,
  redactSecrets,
  unmaskedMcpServer,
  unmaskedSecrets,
} from '../../src/domain/store/redact.js';
import { unmaskedMcp } from '../../src/domain/user/settings.js';

const M = REDACTED;

describe('maskUrl', () => {
  it('masks the password, every query value and every fragment value, and keeps scheme, host, port and path', () => {
    expect(maskUrl('https://user:pw@mcp.example.com:8443/sse/v1?api-version=2&x=1#access_token=t0&state=s')).toBe(
      `https://user:${M}@mcp.example.com:8443/sse/v1?api-version=${M}&x=${M}#access_token=${M}&state=${M}`,
    );
  });

  it('masks a user given alone (a token as user), a bare query or fragment, and leaves an empty value empty', () => {
    expect(maskUrl('https://ghp_abc@github.com/x')).toBe(`https://${M}@github.com/x`);
    expect(maskUrl('https://h/x?TOKEN#frag')).toBe(`https://h/x?${M}#${M}`);
    expect(maskUrl('https://h/x?a=&b')).toBe(`https://h/x?a=&${M}`);
    expect(maskUrl('https://h/x')).toBe('https://h/x');
    expect(maskUrl('https://user:@h/')).toBe('https://user:@h/');
  });

  it(`masks a query or fragment of more than ${MAX_MASKED_PAIRS} pairs whole, and puts it back whole`, () => {
    const stored = `https://h/x?${'a=b&'.repeat(MAX_MASKED_PAIRS)}c=d#${'e=f&'.repeat(MAX_MASKED_PAIRS)}g`;
    expect(maskUrl(stored)).toBe(`https://h/x?${M}#${M}`);
    expect(unmaskedUrl(`https://h/x?${M}#${M}`, stored)).toBe(stored);
    expect(maskUrl(`https://h/x?${'a=b&'.repeat(MAX_MASKED_PAIRS - 1)}c=d`)).toBe(
      `https://h/x?${`a=${M}&`.repeat(MAX_MASKED_PAIRS - 1)}c=${M}`,
    );
  });

  it('masks a URL of any length: the password of one over 65,536 characters', () => {
    const long = `https://user:PASSWORD@mcp.example.com/${'p'.repeat(70_000)}?k=v`;
    const masked = maskUrl(long);
    expect(masked).not.toContain('PASSWORD');
    expect(masked).toBe(`https://user:${M}@mcp.example.com/${'p'.repeat(70_000)}?k=${M}`);
  });
});

describe('unmaskedUrl', () => {
  it('puts back each masked part of the same server, and keeps the parts the client changed', () => {
    const stored = 'https://u:pw@h/p?k=v&r=eu#access_token=t';
    expect(unmaskedUrl(maskUrl(stored), stored)).toBe(stored);
    expect(unmaskedUrl(`https://u:${M}@h/p?k=${M}&r=us#access_token=${M}`, stored)).toBe('https://u:pw@h/p?k=v&r=us#access_token=t');
    expect(unmaskedUrl(`https://u:${M}@h/p?new=${M}`, stored)).toBe(`https://u:pw@h/p?new=${M}`);
  });

  it('never moves a stored secret to another host or path', () => {
    const stored = 'https://u:pw@h/p?k=v';
    expect(unmaskedUrl(`https://u:${M}@evil.example/p?k=${M}`, stored)).toBe(`https://u:${M}@evil.example/p?k=${M}`);
    expect(unmaskedUrl(`https://u:${M}@h/other?k=${M}`, stored)).toBe(`https://u:${M}@h/other?k=${M}`);
  });
});

describe('maskArgs', () => {
  it('masks the word after any flag and the value of --flag=value and NAME=value, and keeps flags and other words', () => {
    expect(
      maskArgs(
        ['-y', '@mcp/server', '--key', 'k1', '-k', 'k2', '--api-key=k3', 'K=k4', '--verbose', '--out', 'f', 'serve', '--', 'x'],
        (v) => v,
      ),
    ).toEqual(['-y', M, '--key', M, '-k', M, `--api-key=${M}`, `K=${M}`, '--verbose', '--out', M, 'serve', '--', 'x']);
  });

  it('keeps the name of a header line after a flag, and masks a positional URL by place', () => {
    expect(maskArgs(['-H', 'X-Auth: v1', 'https://u:p@h/sse?sig=s#t=1'], (v) => v)).toEqual([
      '-H',
      `X-Auth: ${M}`,
      `https://u:${M}@h/sse?sig=${M}#t=${M}`,
    ]);
  });
});

describe('redactSecrets and redactMcpConfig on MCP configurations', () => {
  const server = {
    url: 'https://mcp.example.com/mcp#access_token=frag-secret',
    headers: { 'X-Auth': 'hdr-secret', 'Ocp-Apim-Subscription-Key': 'apim-secret', Accept: 'json' },
    auth: { strategy: 'api_key', value: 'auth-secret', header_name: 'X-Key' },
    timeout: 30,
    enabled: true,
  };
  const stdio = { command: 'npx', args: ['--key', 'arg-secret', '-k', 'arg-secret2', '--api-key=arg-secret3'], env: { ANY: 'env-secret' } };
  const masked = {
    server: {
      url: `https://mcp.example.com/mcp#access_token=${M}`,
      headers: { 'X-Auth': M, 'Ocp-Apim-Subscription-Key': M, Accept: M },
      auth: { strategy: 'api_key', value: M, header_name: 'X-Key' },
      timeout: 30,
      enabled: true,
    },
    stdio: { command: 'npx', args: ['--key', M, '-k', M, `--api-key=${M}`], env: { ANY: M } },
  };

  it('masks the agent settings map of servers by place (under mcp_config, and under mcpServers)', () => {
    expect(redactSecrets({ mcp_config: { remote: server, local: stdio } })).toEqual({
      mcp_config: { remote: masked.server, local: masked.stdio },
    });
    expect(redactSecrets({ mcp_config: { mcpServers: { remote: server } } })).toEqual({
      mcp_config: { mcpServers: { remote: masked.server } },
    });
  });

  it("masks MCPConfig's server lists by place, a server given as a bare URL included", () => {
    expect(
      redactMcpConfig({
        sse_servers: ['https://u:p@h/sse', { url: 'https://h/sse?code=c', api_key: 'k' }],
        shttp_servers: [{ url: 'https://h/mcp', api_key: null, timeout: 60 }],
        stdio_servers: [{ name: 's', ...stdio }],
      }),
    ).toEqual({
      sse_servers: [`https://u:${M}@h/sse`, { url: `https://h/sse?code=${M}`, api_key: M }],
      shttp_servers: [{ url: 'https://h/mcp', api_key: null, timeout: 60 }],
      stdio_servers: [{ name: 's', ...masked.stdio }],
    });
  });

  it('masks a long URL of a server (over 65,536 characters) and a long free text alike', () => {
    const url = `https://user:PASSWORD@h/${'x'.repeat(70_000)}`;
    expect(JSON.stringify(redactSecrets({ mcp_config: { s: { url } } }))).not.toContain('PASSWORD');
    expect(redactSecrets(`see ${url}`)).not.toContain('PASSWORD');
  });

  it('masks a 422 input by the place its location names', () => {
    expect(redactAtLocation('hdr-secret', ['body', 'mcp_config', 'remote', 'headers', 'X-Auth'])).toBe(M);
    expect(redactAtLocation('https://u:p@h?x=1', ['body', 'mcp_config', 'remote', 'url'])).toBe(`https://u:${M}@h?x=${M}`);
    expect(redactAtLocation('X-Auth', ['body', 'mcp_config', 'remote', 'headers', '[key]'])).toBe('X-Auth');
    expect(redactAtLocation('v', ['body', 'secrets', 'A'])).toBe(M);
    expect(redactAtLocation('plain words', ['body', 'title'])).toBe('plain words');
  });
});

describe('unmaskedSecrets and unmaskedMcpServer (a masked answer sent back)', () => {
  const stored = {
    url: 'https://u:pw@h/sse?k=v#access_token=t',
    headers: { 'X-Auth': 'h1' },
    args: ['--key', 'k1', '--port', '80', 'serve'],
    env: { A: 'e1' },
    auth: { strategy: 'bearer', value: 'b1' },
  };

  it('puts back every stored part the answer masked, by place', () => {
    const answered = redactSecrets({ mcp_config: { s: stored } }) as { mcp_config: { s: typeof stored } };
    expect(unmaskedSecrets(answered, { mcp_config: { s: stored } })).toEqual({ mcp_config: { s: stored } });
    expect(unmaskedMcpServer(answered.mcp_config.s, stored)).toEqual(stored);
  });

  it("keeps what the client changed, and a mask that does not read as the stored value's", () => {
    const given = {
      url: 'https://u:new@h/sse',
      headers: { 'X-Auth': M, 'X-New': 'n' },
      args: ['--key', 'k2', '--port', M, 'serve', '--extra', M],
      env: { A: M },
      auth: { strategy: 'bearer', value: M },
    };
    expect(unmaskedMcpServer(given, stored)).toEqual({
      url: 'https://u:new@h/sse',
      headers: { 'X-Auth': 'h1', 'X-New': 'n' },
      args: ['--key', 'k2', '--port', '80', 'serve', '--extra', M],
      env: { A: 'e1' },
      auth: { strategy: 'bearer', value: 'b1' },
    });
  });
});

describe('unmaskedMcp (the app server settings POST of an MCPConfig read back)', () => {
  it('finds each remote server by its URL as answered masked, and puts back its URL, key, arguments and environment', () => {
    const stored = {
      sse_servers: [{ url: 'https://u:pw@h/sse?k=v', api_key: 'sk-1' }],
      shttp_servers: [{ url: 'https://h/mcp#access_token=t', api_key: null, timeout: 60 }],
      stdio_servers: [{ name: 's', command: 'npx', args: ['-k', 'k1'], env: { A: 'e1' } }],
    };
    expect(unmaskedMcp(redactMcpConfig(stored), stored)).toEqual(stored);
  });
});
