import { parseArgs } from 'node:util';
import jwt from 'jsonwebtoken';
import { ensureDevSigningKey } from '../src/infra/auth/dev-signing-key.js';
import { createPublisherTokens } from '../src/infra/publishing/publisher-tokens.js';
import { publisherTokenSecretFor } from '../src/infra/publishing/publisher-token-secret.js';
import { loadConfig } from '../src/infra/config.js';

const { values } = parseArgs({
  options: {
    level: { type: 'string', default: 'LV2' },
    workspace: { type: 'string' },
    sub: { type: 'string', default: 'dev-user' },
    email: { type: 'string' },
    groups: { type: 'string', default: '' },
    'expires-in': { type: 'string', default: '12h' },
    publisher: { type: 'string' },
  },
});

const config = loadConfig();
if (config.appEnv !== 'development' || config.auth.endpoint) {
  console.error('npm run token mints development tokens only (APP_ENV development, PLATFORM_AUTH_ENDPOINT unset)');
  process.exit(1);
}
if (values.publisher !== undefined) {
  // A publisher token (HS256, one year) for the publishing routes, as sign-in would issue it.
  if (!/^[1-9]\d{0,9}$/.test(values.publisher) || !values.email) {
    console.error('--publisher <numeric publisher id> needs --email <the publisher e-mail>');
    process.exit(1);
  }
  const tokens = createPublisherTokens(publisherTokenSecretFor(config)!, config.auth.rolesClaim);
  process.stdout.write(tokens.sign({ id: Number(values.publisher), email: values.email }) + '\n');
  process.exit(0);
}
if (!/^LV[1-5]$/.test(values.level!)) {
  console.error('--level must be one of LV1..LV5');
  process.exit(1);
}
if (!values.workspace && values.level !== 'LV1') {
  console.error('--workspace <uuid> is required for levels LV2..LV5');
  process.exit(1);
}
const key = ensureDevSigningKey(config.dataDir);
const claims: Record<string, unknown> = {
  sub: values.sub,
  [config.auth.rolesClaim]: [values.level],
  [config.auth.groupsClaim]: values.groups ? values.groups.split(',') : [],
};
if (values.workspace) claims.workspace = values.workspace;
if (values.email) claims.email = values.email;
process.stdout.write(
  jwt.sign(claims, key.privateKeyPem, { algorithm: 'RS256', keyid: key.kid, expiresIn: values['expires-in'] as jwt.SignOptions['expiresIn'] }) + '\n',
);
