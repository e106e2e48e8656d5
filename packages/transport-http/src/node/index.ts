/**
 * `@roundtrip/transport-http/node`: what only Node can do, kept out of the package's root entry so that
 * Workers, Deno and Bun can load the root: serving on node:http with graceful shutdown
 * (`runHttpServer`, `mainHttpServer`), and reading the settings from flags, the environment and files.
 * @module
 */
export { DEFAULT_PORT, type ListenAddress, parseListenAddress } from './listen-address.ts';
export type { ShutdownReport } from './node-http-listener.ts';
export type { HttpFlags } from './resolve-http-settings.ts';
export { type JwtFlags, resolveJwtSettings } from './resolve-jwt-settings.ts';
export { type HttpServerOptions, mainHttpServer, type RunningHttpServer, runHttpServer } from './run-http-server.ts';
