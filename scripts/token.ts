import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/infra/config.js';
import { mintDevToken, mintPublisherToken } from './dev-tokens.js';

const usage = `Prints a development token (and nothing else) on stdout.

  npm run -s token -- --level LV2 --workspace <uuid> [--sub <id>] [--email <e-mail>]
  npm run -s token -- --level LV3 --workspace <uuid> --groups <id,id>
  npm run -s token -- --level LV1
  npm run -s token -- --publisher <publisher id> --email <the publisher's e-mail>

  --level LV1..LV5     permission level (default LV2); LV2..LV5 need --workspace
  --workspace <uuid>   the workspace the token acts in
  --sub <id>           profile id (default dev-user)
  --email <e-mail>     optional e-mail claim
  --groups <a,b>       group ids (LV3 scope)
  --expires-in <span>  lifetime, e.g. 12h (default), 30m, 7d
  --publisher <id>     a publisher token (HS256, one year) for /publish/*, for that publisher record
  -h, --help           this text

Tokens are signed with the development key in DATA_DIR (default ./.data), which the service
trusts in development mode only (APP_ENV development, PLATFORM_AUTH_ENDPOINT unset).
With -s npm prints no banner, so TOKEN=$(npm run -s token -- …) holds the token alone.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(1);
}

function parsedArguments() {
  try {
    return parseArgs({
      options: {
        level: { type: 'string', default: 'LV2' },
        workspace: { type: 'string' },
        sub: { type: 'string', default: 'dev-user' },
        email: { type: 'string' },
        groups: { type: 'string', default: '' },
        'expires-in': { type: 'string', default: '12h' },
        publisher: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const values = parsedArguments();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
  throw error;
}
if (config.appEnv !== 'development' || config.auth.endpoint) {
  fail('npm run token mints development tokens only (APP_ENV development, PLATFORM_AUTH_ENDPOINT unset)');
}
if (values.publisher !== undefined) {
  if (!/^[1-9]\d{0,9}$/.test(values.publisher) || !values.email) fail('--publisher <numeric publisher id> needs --email <the publisher e-mail>');
  process.stdout.write(`${mintPublisherToken(config, { id: Number(values.publisher), email: values.email })}\n`);
  process.exit(0);
}
if (!/^LV[1-5]$/.test(values.level!)) fail('--level must be one of LV1..LV5');
if (!values.workspace && values.level !== 'LV1') fail('--workspace <uuid> is required for levels LV2..LV5');
let token: string;
try {
  token = mintDevToken(config, {
    level: values.level!,
    workspace: values.workspace,
    sub: values.sub!,
    email: values.email,
    groups: values.groups ? values.groups.split(',') : [],
    expiresIn: values['expires-in'],
  });
} catch (error) {
  fail(`--expires-in: ${error instanceof Error ? error.message : String(error)} (use e.g. 30m, 12h, 7d)`);
}
process.stdout.write(`${token}\n`);
