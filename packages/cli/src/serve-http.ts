// `roundtrip serve <module> --http [host:]port`: the module served over stateless Streamable HTTP at
// /mcp, until SIGTERM or SIGINT (then the requests in flight finish first). Loaded only for --http, so
// that a stdio server never loads the HTTP transport.
import { decideBind, RoundtripConfigError } from '@roundtrip/transport-http';
import { parseListenAddress, runHttpServer } from '@roundtrip/transport-http/node';
import type { CommandIo } from './command-io.ts';
import { EXIT } from './exit-codes.ts';
import { reportServeFailure } from './serve-failure.ts';
import type { HttpServeFlags } from './serve-http-flags.ts';
import { CLI_VARIABLES, environmentWith, type ServeOptions } from './serve-options.ts';
import { loadServerModule } from './server-module.ts';
import { usageError } from './usage-error.ts';

const usage = (io: CommandIo, problem: string) => usageError(io, 'serve', problem);

/** Whether a variable is set to something. */
const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * Why the command line cannot serve over HTTP, before anything is loaded: an address that is not
 * `[host:]port`, or one beyond this machine without authentication and without --insecure-no-auth.
 */
function checkHttp(flags: HttpServeFlags, env: NodeJS.ProcessEnv): string | undefined {
  let address: { host: string; port: number };
  try {
    address = parseListenAddress(flags.listen);
  } catch (error) {
    if (error instanceof RoundtripConfigError) return `${error.message}.`;
    throw error;
  }
  const authenticated = isSet(flags.jwks) || isSet(env.ROUNDTRIP_JWKS);
  const insecureNoAuth = flags.insecureNoAuth || ['1', 'true', 'yes'].includes(env.ROUNDTRIP_INSECURE_NO_AUTH?.trim().toLowerCase() ?? '');
  const decision = decideBind({ ...address, authenticated, insecureNoAuth });
  return decision.ok ? undefined : decision.message;
}

/** Serves the module over HTTP; resolves to the exit code once the server has stopped (1 when requests were cut). */
export async function serveHttp(options: ServeOptions, flags: HttpServeFlags, io: CommandIo, env: NodeJS.ProcessEnv): Promise<number> {
  const problem = checkHttp(flags, env);
  if (problem) return usage(io, problem);
  const served = await loadServerModule('serve', options.module, io, options);
  if (!served) return EXIT.failed;
  const { listen, insecureNoAuth, ...named } = flags;
  try {
    const running = await runHttpServer({
      name: served.name,
      version: served.version,
      tools: served.tools,
      prompts: served.prompts,
      resources: served.resources,
      ...(served.instructions !== undefined && { instructions: served.instructions }),
      listen,
      flags: { ...named, insecureNoAuth },
      env: environmentWith(env, options.settings),
      ownVariables: CLI_VARIABLES,
    });
    return await running.stopped;
  } catch (error) {
    return reportServeFailure(io, served, options, error);
  }
}
