import type { EngineLogEntry, PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import {
  type NodeTransportStart,
  type NodeTransportStarted,
  openAnswerRelay,
  RoundtripConfigError,
  reportStartFailure,
  runNodeServer,
  type ServerSettingsFromCode,
} from '@roundtrip/mcp/node';
import { decideBind } from '../bind-policy.ts';
import { createHttpPipeline } from '../http-pipeline.ts';
import { createJwtAuthenticator, type JwtAuthenticator } from '../jwt-authenticator.ts';
import { protectedResourceMetadataUrl } from '../protected-resource-metadata.ts';
import { shutdownOf } from './http-shutdown.ts';
import { loadKeysAtStart } from './keys-at-start.ts';
import { DEFAULT_PORT, type ListenAddress, parseListenAddress } from './listen-address.ts';
import { listenNodeHttp, type ShutdownReport } from './node-http-listener.ts';
import {
  allowedHostsOf,
  HTTP_VARIABLES,
  type HttpFlags,
  type HttpSettings,
  localEndpoint,
  resolveHttpSettings,
  resourceOf,
} from './resolve-http-settings.ts';

export interface HttpServerOptions extends ServerSettingsFromCode {
  /** Server name, shown to clients and used as the audience states are sealed for (the same on every instance). */
  name: string;
  version: string;
  tools?: readonly ToolDefinition[];
  prompts?: readonly PromptDefinition[];
  resources?: readonly ResourceDefinition[];
  /** Instructions for the model, sent to clients that show them. */
  instructions?: string;
  /** Where to listen: `[host:]port` as `--http` takes it, or the two apart. @defaultValue 127.0.0.1:3000 */
  listen?: string | { host?: string; port: number };
  /** The command line's HTTP flags (authentication, allow-lists, public URL), each over its variable. */
  flags?: HttpFlags;
  /** Environment to read settings from. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether SIGTERM and SIGINT shut the server down gracefully (a second one cuts the drain short), and
   * the process then exits. A server that handles them owns its process: it also tunes V8 for serving
   * rounds (see tuneV8ForServing in `@roundtrip/mcp/node`). @defaultValue true
   */
  handleSignals?: boolean;
  /** Where the log goes: the refusals with their reasons, the startup and shutdown lines. @defaultValue one line per entry on stderr */
  log?: (entry: EngineLogEntry) => void;
  /** Called once when the server has stopped, to release resources; the effect ledger it opened is closed after it. */
  onClose?: () => void | Promise<void>;
}

export interface RunningHttpServer {
  /** The MCP endpoint on this machine, e.g. `http://127.0.0.1:3000/mcp` (with the port chosen when 0 was asked for). */
  url: URL;
  /**
   * Shuts down gracefully: no new connections, requests on open ones answered 503, the rounds in flight
   * finished (up to ROUNDTRIP_DRAIN_TIMEOUT_MS, then cut), then `onClose` and the ledger closed.
   */
  close(): Promise<ShutdownReport>;
  /** Resolves once the server has stopped, by `close()` or a signal, with the exit code that fits: 1 when requests were cut. */
  stopped: Promise<number>;
}

function listenAddressOf(listen: HttpServerOptions['listen']): ListenAddress {
  if (listen === undefined) return { host: '127.0.0.1', port: DEFAULT_PORT };
  if (typeof listen === 'string') return parseListenAddress(listen);
  return parseListenAddress(`${listen.host === undefined ? '' : `[${listen.host.replace(/^\[|\]$/g, '')}]`}:${listen.port}`);
}

/** How the operator sets the allow-lists, as refusals and configuration errors name them. */
const ALLOW_LIST_SETTINGS = {
  allowedHosts: '--allowed-hosts (ROUNDTRIP_ALLOWED_HOSTS)',
  allowedOrigins: '--allowed-origins (ROUNDTRIP_ALLOWED_ORIGINS)',
};

/**
 * Serves engine tools, prompts and resources over stateless Streamable HTTP on node:http, at `/mcp`:
 * the Node side of {@link createHttpHandler}. Reads the settings every Node server shares (key, principal,
 * limits, ledger: see resolveServerSettings) and the HTTP ones (see resolveHttpSettings), refuses a
 * non-loopback address without authentication unless `--insecure-no-auth`, and logs on stderr: the
 * startup line with the URL, the authentication and the ledger, and every refusal with its reason.
 * On SIGTERM or SIGINT it stops accepting, lets the rounds in flight finish, closes the ledger and exits 0;
 * when the drain time runs out first, it says which requests it cut and exits 1.
 *
 * @example
 * await runHttpServer({ name: 'orders', version: '1.0.0', tools: [refundOrder], listen: '127.0.0.1:3000' });
 */
export async function runHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const handleSignals = options.handleSignals ?? true;
  return runNodeServer<HttpOwn, RunningHttpServer>(options, {
    ownsProcess: handleSignals,
    log: options.log,
    variables: HTTP_VARIABLES,
    read: (env) => ({ address: listenAddressOf(options.listen), http: resolveHttpSettings(options.flags ?? {}, env) }),
    // after the shared settings: a misspelt ROUNDTRIP_JWKS is named before the bind refusal it causes
    check: (own, _settings, log) => {
      const { address, http } = own;
      const bind = decideBind({ ...address, authenticated: http.jwt !== undefined, insecureNoAuth: http.insecureNoAuth });
      if (!bind.ok) throw new RoundtripConfigError('--http', bind.message, { code: 'unsafe' });
      const authenticator = http.jwt && createJwtAuthenticator(http.jwt);
      if (bind.warning) log({ level: 'warn', event: 'settings', message: bind.warning });
      return { ...own, authenticator };
    },
    start: (opened) => startHttp(options, opened, handleSignals),
  });
}

/** The HTTP server's own settings: where it listens, its HTTP settings, and the authenticator they ask for. */
interface HttpOwn {
  address: ListenAddress;
  http: HttpSettings;
  authenticator?: JwtAuthenticator | undefined;
}

/** Listens, with the answer relay beside the served engine, and puts the shutdown (drain, signals, release) in place. */
async function startHttp(
  options: HttpServerOptions,
  { served, settings, own, log, release }: NodeTransportStart<HttpOwn>,
  handleSignals: boolean,
): Promise<NodeTransportStarted<RunningHttpServer>> {
  const { address, http, authenticator } = own;
  // 2025-era clients' answers, to whichever instance holds the call: through the ledger's PostgreSQL, if it is there
  const relay = await openAnswerRelay(settings.ledgerPath);
  let started: Awaited<ReturnType<typeof listenNodeHttp>>;
  let resource: URL | undefined;
  try {
    const onError = (error: Error) => log({ level: 'warn', event: 'protocol', message: error.message });
    started = await listenNodeHttp(
      address,
      settings.maxRequestBytes,
      (bound) => {
        resource = resourceOf(http, bound);
        return createHttpPipeline({
          engine: served.engine,
          name: options.name,
          version: options.version,
          ...(options.instructions !== undefined && { instructions: options.instructions }),
          principal: settings.principal,
          ...(authenticator && { authentication: { authenticator, resource } }),
          hostOrigin: {
            allowedHosts: allowedHostsOf(http, resource),
            allowedOrigins: http.allowedOrigins,
            bindHost: bound.host,
            settingNames: ALLOW_LIST_SETTINGS,
          },
          maxRequestBytes: settings.maxRequestBytes,
          instance: http.instance,
          relay,
          legacyAnswerTimeoutMs: settings.legacyAnswerTimeoutMs,
          legacyMaxRounds: settings.limits.maxRounds,
          log,
        });
      },
      onError,
    );
  } catch (error) {
    // the served engine is closed after it
    await relay.close();
    throw error;
  }
  const { listener } = started;
  // a JWKS that cannot be fetched is said now, before the startup line, and fetched again until it comes
  const keysWatch = authenticator && (await loadKeysAtStart(authenticator, log));
  const url = localEndpoint(listener.address);
  const auth =
    authenticator && resource
      ? `bearer tokens from ${authenticator.issuer} for ${http.jwt!.audience}, metadata at ${protectedResourceMetadataUrl(resource)}`
      : http.insecureNoAuth
        ? 'NO authentication (--insecure-no-auth)'
        : 'no authentication, for this machine only';
  // the handlers are in place before the startup line: whoever reads it may signal at once
  const { close, stopped } = shutdownOf({
    listener,
    drainTimeoutMs: http.drainTimeoutMs,
    handleSignals,
    log,
    ...(keysWatch && { stopWatching: () => keysWatch.stop() }),
    release: () => release(() => relay.close()),
  });
  return {
    running: { url, close: () => close(), stopped },
    over: `HTTP at ${url.href} with ${auth}`,
    ...(authenticator && { principal: "each token's sub" }),
    after: [
      {
        level: 'info',
        event: 'http',
        message:
          `instance ${http.instance}; request bodies up to ${settings.maxRequestBytes} bytes; ` +
          `on SIGTERM or SIGINT, requests in flight get up to ${http.drainTimeoutMs} ms to finish`,
      },
    ],
  };
}

/**
 * Runs {@link runHttpServer} as a program's main: a setting it cannot start with is reported on stderr
 * with the fix, and the process exits with status 1.
 */
export async function mainHttpServer(options: HttpServerOptions): Promise<RunningHttpServer | undefined> {
  try {
    return await runHttpServer(options);
  } catch (error) {
    return reportStartFailure(options.name, error);
  }
}
