// `roundtrip call --url` and `chat --url` in-process, against a real HTTP MCP server in the test process
// (the trip definitions on the SDK's stateless handler, see http-mcp-server.ts) that wants a bearer
// token: the questions answered from a scripted stdin, the headers given reaching the server, and every
// way the server may not answer explained without the token in it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.ts';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const TOKEN = 's3cret-t0ken';

/** The server's gate: /mcp only, with the token; a 401 naming the resource metadata otherwise, a 500 at /boom, a 403 at /admin. */
function gate(request: Request): Response | undefined {
  const url = new URL(request.url);
  if (url.pathname === '/boom') return new Response('database down', { status: 500 });
  if (url.pathname === '/admin') {
    const challenge = `Bearer error="insufficient_scope", scope="trips:admin", resource_metadata="${url.origin}/.well-known/oauth-protected-resource/admin"`;
    return new Response('{"error":"insufficient_scope"}', { status: 403, headers: { 'www-authenticate': challenge } });
  }
  if (url.pathname !== '/mcp') return new Response('Not Found', { status: 404 });
  const authorization = request.headers.get('authorization');
  if (authorization === `Bearer ${TOKEN}`) return undefined;
  const refused = authorization === null ? '' : ', error="invalid_token", error_description="The token expired"';
  return new Response(JSON.stringify({ error_description: authorization === null ? 'A token is required' : 'The token expired' }), {
    status: 401,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': `Bearer resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp"${refused}`,
    },
  });
}

let server: HttpMcpServer;
beforeAll(async () => {
  server = await startHttpMcpServer(gate);
});
afterAll(() => server.close());

const run = (args: string[], lines: string[] = []) => runCommand(args, { cwd: here, lines });
const withToken = () => ['--url', server.url, '--header', `Authorization: Bearer ${TOKEN}`];

describe('roundtrip call and chat --url', () => {
  it('runs a tool through its questions on 2026-07-28, the headers given sent with every request', async () => {
    const from = server.requests.length;
    const { code, out, err } = await run(
      ['call', 'plan_trip', '--args', '{"traveller":"Ada"}', ...withToken(), '--header', 'X-Trace: trip-42'],
      ['Atlantis', '', '', 'Rome', '', '2', 'y'],
    );
    expect(err).toContain('Where should Ada go?');
    expect(err).toContain('Your last answer was not accepted: Atlantis is not on the map. Please answer again.');
    expect(out).toBe(
      'Booked: 3 nights in Rome for Ada, by plane.\nstructuredContent:\n{\n  "city": "Rome",\n  "nights": 3,\n  "booked": true\n}\n',
    );
    expect(code).toBe(0);
    const seen = server.requests.slice(from);
    expect(seen.length).toBeGreaterThan(2);
    for (const headers of seen) {
      expect(headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
      expect(headers.get('x-trace')).toBe('trip-42');
      expect(headers.get('mcp-protocol-version')).toBe('2026-07-28');
    }
  });

  it('chats: lists what the server offers, runs a tool by number, quits', async () => {
    const { code, out, err } = await run(['chat', ...withToken()], ['1', 'Bo', 'Oslo', '2', '', 'n', 'q']);
    expect(err).toContain('Connected to trips 1.2.3 (protocol 2026-07-28)');
    expect(err).toContain('Tools\n  1  plan_trip — Plan a trip\n');
    expect(err).toContain('Book 2 nights in Oslo?');
    expect(out).toContain('Not booked: 2 nights in Oslo for Bo, by train.');
    expect(code).toBe(0);
  });

  it("on a 2025 era, prints the stateless server's error and says why it could not ask", async () => {
    const { code, out, err } = await run(['call', 'plan_trip', '--era', '2025-11-25', '--args', '{"traveller":"Ada"}', ...withToken()]);
    expect(out).toContain('Error (the tool reported isError):');
    expect(out).toContain('did not declare the elicitation capability');
    expect(err).toContain(
      'Note: on a 2025 era, an HTTP server that is stateless and does not ask on the call’s own stream (roundtrip serve --http does) cannot send this host its questions',
    );
    expect(err).toContain('Run with --era 2026-07-28 (the default) to answer them here.');
    expect(code).toBe(1);
  });

  it.each(['2026-07-28', '2025-11-25'])('on %s, says the server wants a token, or refused the one given, never showing it', async (era) => {
    const metadata = `${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`;
    const none = await run(['call', 'plan_trip', '--era', era, '--url', server.url]);
    expect(none.err).toContain(
      `roundtrip call: the server at ${server.url} wants authentication (HTTP 401 Unauthorized: A token is required): ` +
        `pass --header 'Authorization: Bearer <token>'. It says how to get a token in its metadata: ${metadata}\n`,
    );
    expect(none.code).toBe(1);
    const wrong = await run(['call', 'plan_trip', '--era', era, '--url', server.url, '--header', 'authorization: Bearer expired-one']);
    expect(wrong.err).toContain(
      `roundtrip call: the server at ${server.url} refused the Authorization header given (HTTP 401 Unauthorized: invalid_token: The token expired): ` +
        `check the token, or get a new one. It says how to get a token in its metadata: ${metadata}\n`,
    );
    expect(wrong.err).not.toContain('expired-one');
    expect(wrong.err).not.toContain('stderr');
    expect(wrong.code).toBe(1);
    const origin = new URL(server.url).origin;
    const scope = await run(['call', 'plan_trip', '--era', era, '--url', `${origin}/admin`, '--header', `Authorization: Bearer ${TOKEN}`]);
    expect(scope.err).toBe(
      `roundtrip call: the server at ${origin}/admin refused the request (HTTP 403 Forbidden: insufficient_scope): ` +
        `the token lacks the scope this needs (trips:admin): get one that has it. ` +
        `It says how to get a token in its metadata: ${origin}/.well-known/oauth-protected-resource/admin\n`,
    );
    expect(scope.code).toBe(1);
  });

  it.each(['2026-07-28', '2025-06-18'])('on %s, exits 3 naming the URL when no server answers there, or no MCP endpoint', async (era) => {
    const closed = await closedPortUrl();
    const refused = await run(['chat', '--era', era, '--url', closed, '--header', `Authorization: Bearer ${TOKEN}`]);
    expect(refused.err).toBe(
      `roundtrip chat: no server answers at ${closed} (connection refused). Start it (e.g. roundtrip serve --http), or check the host and port in --url.\n`,
    );
    expect(refused.code).toBe(3);
    const origin = new URL(server.url).origin;
    const missing = await run(['call', 'plan_trip', '--era', era, '--url', `${origin}/mpc?key=abc`]);
    expect(missing.err).toBe(
      `roundtrip call: there is no MCP endpoint at ${origin}/mpc?… (HTTP 404 Not Found): check the path in --url (servers often serve /mcp).\n`,
    );
    expect(missing.code).toBe(3);
    const failing = await run(['call', 'plan_trip', '--era', era, '--url', `${origin}/boom`]);
    expect(failing.err).toBe(
      `roundtrip call: the server at ${origin}/boom failed (HTTP 500 Internal Server Error: database down): its own log says why.\n`,
    );
    expect(failing.code).toBe(3);
  });

  it('warns when a token would cross the network unencrypted', async () => {
    const closed = new URL(await closedPortUrl());
    const { code, err } = await run([
      'call',
      'x',
      '--url',
      `http://0.0.0.0:${closed.port}/mcp`,
      '--header',
      `Authorization: Bearer ${TOKEN}`,
    ]);
    expect(err).toContain(`Note: Authorization goes to 0.0.0.0:${closed.port} unencrypted (http://); anyone on the way can read it.`);
    expect(err).not.toContain(TOKEN);
    expect(code).toBe(3);
  });

  it('says what is wrong with --url and --header (exit 2), naming a header but never its value', async () => {
    const cases: [string[], string][] = [
      [['call', 'x', '--url'], 'roundtrip call: --url needs the address of an HTTP MCP server, e.g. --url http://127.0.0.1:3000/mcp.'],
      [
        ['call', 'x', '--url', 'localhost:3000/mcp'],
        "roundtrip call: --url 'localhost:3000/mcp' has no scheme: write it as http://localhost:3000/mcp (or https://).",
      ],
      [
        ['chat', '--url', 'ftp://host/mcp'],
        'roundtrip chat: --url takes an http:// or https:// address (MCP over Streamable HTTP), not ftp://; a server that runs over stdio',
      ],
      [['chat', '--url', 'not a url'], "roundtrip chat: --url 'not a url' is not a URL: give it whole"],
      [['chat', '--url', 'http://ada:pw@host/mcp'], 'roundtrip chat: --url carries credentials (user:password@ before the host)'],
      [['chat', '--url', 'http://a/mcp', '--url', 'http://b/mcp'], 'roundtrip chat: give one --url.'],
      [
        ['call', 'm.ts', 'x', '--url', 'http://h/mcp'],
        "roundtrip call: --url names a server already running; 'm.ts' is a module to serve: choose",
      ],
      [['chat', 'm.ts', '--url=http://h/mcp'], "roundtrip chat: --url names a server already running; 'm.ts' is a module to serve"],
      [
        ['call', 'x', '--url', 'http://h/mcp', '--', 'node', 's.js'],
        'roundtrip call: --url names a server already running; a command after -- is one to start',
      ],
      [
        ['call', 'x', '--url', 'http://h/mcp', '--key-file', 'k.key'],
        '--key-file is an option of `roundtrip serve`, for a server this command starts; with --url',
      ],
      [
        ['chat', '--ttl=60', '--url', 'http://h/mcp'],
        'roundtrip chat: --ttl is an option of `roundtrip serve`, for a server this command starts',
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--server-log', 'l.txt'],
        'roundtrip chat: --server-log keeps the log of a server this command starts',
      ],
      [['call', '--url', 'http://h/mcp'], 'roundtrip call: give a tool, prompt or resource name after --url and its address.'],
      [
        ['call', 'm.ts', 'x', '--header', 'X-A: 1'],
        'roundtrip call: --header is sent to a server at --url; a server this command starts over stdio takes none',
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header'],
        "roundtrip chat: --header needs 'Name: value', e.g. --header 'Authorization: Bearer <token>'.",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'X-A: 1', '--header', 'Bearer sk-live-123'],
        "roundtrip chat: --header number 2 is not 'Name: value' (it has no ':')",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'my key: sk-live-123'],
        'roundtrip chat: --header number 1 has no header name before its',
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'X-Api-Key:'],
        "roundtrip chat: --header 'X-Api-Key' has no value after its ':' (is a variable in it empty?).",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'Authorization: Bearer '],
        "roundtrip chat: --header 'Authorization' has nothing after 'Bearer'",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'Mcp-Session-Id: sk-live-123'],
        "roundtrip chat: --header 'Mcp-Session-Id' is set by the MCP client itself",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'X-A: sk-live-123\r\nX-B: 2'],
        "roundtrip chat: --header 'X-A' has a line break or a control character",
      ],
      [
        ['chat', '--url', 'http://h/mcp', '--header', 'X-A: sk-live-123', '--header', 'x-a: sk-live-123'],
        "roundtrip chat: --header 'x-a' is given twice",
      ],
      [['call', 'x', '--urll', 'http://h/mcp'], "roundtrip call: unknown option '--urll'. Did you mean '--url'?"],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(err, args.join(' ')).toContain(message);
      expect(err).not.toContain('sk-live-123');
      expect(err.split('\n').at(-2)).toBe(`Run \`roundtrip ${args[0]} --help\` for its usage.`);
      expect(code).toBe(2);
    }
  });

  it('documents --url and --header in the help of call and chat', async () => {
    for (const command of ['call', 'chat']) {
      const { out } = await run([command, '--help']);
      expect(out).toContain(
        `roundtrip ${command} ${command === 'call' ? '<name> [--args <json>] ' : ''}--url <url> [--header 'Name: value']…`,
      );
      expect(out).toContain("--header 'Name: value'");
    }
  });
});
