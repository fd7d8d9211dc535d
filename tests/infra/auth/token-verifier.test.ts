import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { createTokenVerifier } from '../../../src/infra/auth/token-verifier.js';
import { AuthenticationError } from '../../../src/infra/auth/principal-from-claims.js';
import { mintToken, platformKey } from '../../support/test-keys.js';

const ws = '6f1c2f4e-8a4b-4c1e-9a57-3b2f0e1d9c11';

describe('token verifier', () => {
  const verify = createTokenVerifier({ keySource: platformKey.publicKey, rolesClaim: 'roles', groupsClaim: 'groups' });

  it('answers the principal of a valid token, the most privileged level counting', async () => {
    const principal = await verify(mintToken({ workspace: ws, sub: 'u', roles: ['LV4', 'LV2'], groups: ['g'], email: 'u@x.test' }));
    expect(principal).to.deep.equal({ sub: 'u', workspace: ws, level: 2, groups: ['g'], email: 'u@x.test' });
  });

  it('stops accepting a remembered token once it expires', async function () {
    this.timeout(5_000);
    const token = mintToken({ workspace: ws }, { expiresIn: 1 });
    expect((await verify(token)).sub).to.equal('user-1');
    await sleep(1_100);
    const error = await verify(token).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AuthenticationError);
  });
});
