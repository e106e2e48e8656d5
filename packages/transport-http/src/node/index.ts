/**
 * `@roundtrip/transport-http/node`: what only Node can do, kept out of the package's root entry so that
 * Workers, Deno and Bun can load the root: reading the authentication settings from flags, the
 * environment and a JWKS file.
 * @module
 */
export { type JwtFlags, resolveJwtSettings } from './resolve-jwt-settings.ts';
