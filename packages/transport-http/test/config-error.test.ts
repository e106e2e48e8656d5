// A setting the HTTP transport cannot start with is the one RoundtripConfigError every Roundtrip server throws
// (@roundtrip/mcp's, at its web-standard root and its Node subpath alike; HttpConfigError is its former name),
// naming the setting and saying by its code what kind of problem it is.
import { RoundtripConfigError as FromMcp } from '@roundtrip/mcp';
import { RoundtripConfigError as FromMcpNode } from '@roundtrip/mcp/node';
import { afterEach, describe, expect, it } from 'vitest';
import { bookTable } from '../../mcp/test/fixtures/booking-definitions.ts';
import { createHostOriginCheck, createJwtAuthenticator, HttpConfigError, RoundtripConfigError } from '../src/index.ts';
import { closeAll, startServer } from './support/http-host.ts';

afterEach(closeAll);

/** What `attempt` threw (or the promise it returned rejected with). */
async function refusalOf(attempt: () => unknown): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('the setting errors of the HTTP transport', () => {
  it('are one class: @roundtrip/mcp’s, at its root and its Node subpath; HttpConfigError is that class', () => {
    expect(RoundtripConfigError).toBe(FromMcp);
    expect(RoundtripConfigError).toBe(FromMcpNode);
    expect(HttpConfigError).toBe(RoundtripConfigError);
    const error = new HttpConfigError('allowedHosts', 'allowedHosts: give a host name');
    expect(error).toBeInstanceOf(RoundtripConfigError);
    expect(error).toMatchObject({ name: 'RoundtripConfigError', setting: 'allowedHosts', code: 'invalid_value' });
  });

  it('say what kind of problem: a value the setting does not take, a setting that must be given', async () => {
    expect(await refusalOf(() => createHostOriginCheck({ allowedHosts: ['https://mcp.example.com'] }))).toMatchObject({
      setting: 'allowedHosts',
      code: 'invalid_value',
    });
    const jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] };
    expect(await refusalOf(() => createJwtAuthenticator({ jwks, issuer: ' ', audience: 'https://mcp.example.com/mcp' }))).toMatchObject({
      setting: 'ROUNDTRIP_ISSUER',
      code: 'missing',
    });
  });

  it('say what kind of problem: an address served to others without authentication, a port another server holds', async () => {
    const unsafe = await refusalOf(() => startServer({ tools: [bookTable], listen: '0.0.0.0:0' }));
    expect(unsafe).toBeInstanceOf(RoundtripConfigError);
    expect(unsafe).toMatchObject({
      setting: '--http',
      code: 'unsafe',
      message: expect.stringMatching(/^refusing to serve on 0\.0\.0\.0:0/),
    });
    const first = await startServer({ tools: [bookTable] });
    const taken = await refusalOf(() => startServer({ tools: [bookTable], listen: `127.0.0.1:${first.url.port}` }));
    expect(taken).toBeInstanceOf(RoundtripConfigError);
    expect(taken).toMatchObject({ setting: '--http', code: 'unavailable', message: expect.stringMatching(/the port is in use/) });
  });
});
