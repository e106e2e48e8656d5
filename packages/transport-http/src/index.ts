/**
 * `@roundtrip/transport-http`: Roundtrip over stateless Streamable HTTP, web-standard (`Request` in,
 * `Response` or data out, no `node:` import) so that Node, Workers, Deno, Bun and Hono can use it: the
 * `fetch` handler (`createHttpHandler`), and its safe-by-default pieces on their own: the bind policy,
 * the Host and Origin check, JWT bearer authentication against a JWKS, the challenge of a refused
 * request, and the RFC 9728 protected resource metadata. Serving on node:http with graceful shutdown,
 * and reading settings from flags, the environment and files, is Node's: `@roundtrip/transport-http/node`.
 * @module
 */

// the one class of setting errors every transport throws (the handler's options too); HttpConfigError is its former name
export { type ConfigErrorCode, RoundtripConfigError } from '@roundtrip/mcp';
export type { Authenticated, Authentication, AuthenticationFailure } from './authentication.ts';
export { type BearerChallengeOptions, bearerChallengeResponse } from './bearer-challenge.ts';
export { type BindDecision, type BindRequest, DEFAULT_BIND_HOST, decideBind } from './bind-policy.ts';
export { createHostOriginCheck, type HostOriginOptions, type HostOriginVerdict } from './host-origin-check.ts';
export { HttpConfigError } from './http-config-error.ts';
export { createHttpHandler } from './http-handler.ts';
export type { HttpAuthentication, HttpHandler, HttpHandlerOptions, RequestAuthenticator } from './http-handler-options.ts';
export { INSTANCE_HEADER } from './http-responses.ts';
export {
  ASYMMETRIC_ALGORITHMS,
  type AsymmetricAlgorithm,
  createJwtAuthenticator,
  type JwtAuthenticator,
  type JwtAuthenticatorOptions,
  type KeysLoaded,
} from './jwt-authenticator.ts';
export { isLoopbackHost } from './loopback-host.ts';
export {
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
  protectedResourceMetadata,
  protectedResourceMetadataResponse,
  protectedResourceMetadataUrl,
} from './protected-resource-metadata.ts';
export type { RequestHead } from './request-head.ts';
