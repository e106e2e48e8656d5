#!/usr/bin/env node
// A test JWKS and a bearer token, for trying a server with authentication on this machine without an
// authorization server (docs/deploying.md's recipe, and its test). On first use it makes an ES256 key pair:
// the public key as a JSON Web Key Set in the --jwks file (what the server is given as ROUNDTRIP_JWKS), the
// private key beside it in <name>.private.json (readable by this user only); later runs reuse the pair. Then
// it prints a token signed with that key on stdout: `sub`, `iss`, `aud`, `iat` and `exp`.
//
//   node scripts/test-token.mjs --jwks .data/deploy/jwks.json --issuer http://127.0.0.1/test-issuer \
//     --audience http://127.0.0.1:8080/mcp [--sub ada] [--ttl 3600] [--scope 'a b'] [--typ at+jwt]
//
// --jwks, --issuer, --audience and --typ default to ROUNDTRIP_JWKS, ROUNDTRIP_ISSUER, ROUNDTRIP_AUDIENCE and
// ROUNDTRIP_JWT_TYP: in the environment a server starts with, it makes tokens that server accepts.
// For tests and trials only: whoever can read the private key file can sign a token for any user.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// jose is a dependency of @roundtrip/transport-http, not of the workspace's root: found from there
const jose = await import(pathToFileURL(createRequire(join(root, 'packages', 'transport-http', 'package.json')).resolve('jose')).href);

const USAGE =
  'usage: node scripts/test-token.mjs --jwks <file> --issuer <url> --audience <id> [--sub <user>] [--ttl <seconds>] [--scope <scopes>] [--typ <typ>]';

/** Says what is wrong and how to run it, on stderr, and exits 2. */
function usageError(problem) {
  process.stderr.write(`test-token: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      jwks: { type: 'string', default: process.env.ROUNDTRIP_JWKS },
      issuer: { type: 'string', default: process.env.ROUNDTRIP_ISSUER },
      audience: { type: 'string', default: process.env.ROUNDTRIP_AUDIENCE },
      typ: { type: 'string', default: process.env.ROUNDTRIP_JWT_TYP || 'JWT' },
      sub: { type: 'string', default: 'ada' },
      ttl: { type: 'string', default: '3600' },
      scope: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  usageError(error.message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
for (const [flag, variable] of [
  ['jwks', 'ROUNDTRIP_JWKS'],
  ['issuer', 'ROUNDTRIP_ISSUER'],
  ['audience', 'ROUNDTRIP_AUDIENCE'],
]) {
  if (!values[flag]?.trim()) usageError(`give --${flag} (or set ${variable}), the same the server is given`);
}
if (/^[a-z][a-z0-9+.-]*:\/\//i.test(values.jwks)) {
  usageError(`--jwks ${values.jwks}: give a file path; this script writes the key set there (serve it over https yourself if you must)`);
}
if (!/^[1-9]\d{0,7}$/.test(values.ttl)) usageError(`--ttl ${values.ttl}: give the token's lifetime in whole seconds, e.g. 3600`);
if (!values.sub.trim()) usageError('--sub is empty: give the user the token stands for (the principal every state is bound to)');

const jwksFile = resolve(values.jwks);
const privateFile = jwksFile.replace(/(\.json)?$/, '.private.json');
const ALG = 'ES256';

/** The key pair: read back when both files are there, made (and written) when neither is. */
async function keyPair() {
  const [hasPublic, hasPrivate] = [existsSync(jwksFile), existsSync(privateFile)];
  if (hasPublic && hasPrivate) {
    const jwk = JSON.parse(readFileSync(privateFile, 'utf8'));
    return { kid: jwk.kid, privateKey: await jose.importJWK(jwk, ALG) };
  }
  if (hasPublic || hasPrivate) {
    process.stderr.write(
      `test-token: ${hasPublic ? jwksFile : privateFile} is there but ${hasPublic ? privateFile : jwksFile} is not: ` +
        'remove the one left to make a new key pair (a server given the old key set then refuses the old tokens)\n',
    );
    process.exit(1);
  }
  const { publicKey, privateKey } = await jose.generateKeyPair(ALG, { extractable: true });
  const publicJwk = await jose.exportJWK(publicKey);
  const kid = await jose.calculateJwkThumbprint(publicJwk);
  mkdirSync(dirname(jwksFile), { recursive: true });
  writeFileSync(privateFile, `${JSON.stringify({ ...(await jose.exportJWK(privateKey)), kid, alg: ALG })}\n`, { mode: 0o600 });
  chmodSync(privateFile, 0o600);
  writeFileSync(jwksFile, `${JSON.stringify({ keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] }, null, 2)}\n`);
  process.stderr.write(
    `test-token: made a test key pair: ${jwksFile} (public: give it to the server as ROUNDTRIP_JWKS) and ${privateFile} (private: it signs the tokens)\n`,
  );
  return { kid, privateKey };
}

const { kid, privateKey } = await keyPair();
const token = await new jose.SignJWT(values.scope ? { scope: values.scope } : {})
  .setProtectedHeader({ alg: ALG, kid, typ: values.typ })
  .setSubject(values.sub)
  .setIssuer(values.issuer)
  .setAudience(values.audience)
  .setIssuedAt()
  .setExpirationTime(`${values.ttl}s`)
  .sign(privateKey);
process.stdout.write(`${token}\n`);
process.stderr.write(`test-token: a token for ${values.sub} from ${values.issuer} to ${values.audience}, valid ${values.ttl} s\n`);
