import { unusedPort } from '@swap/testing';
import { portalHarnessPerSuite } from '../testing/portal-harness';

/** The sign-in throttle with its Redis unreachable (a port nothing listens on): counted in the replica's memory. */
describe('sign-in throttle without Redis (partner-portal-api over PostgreSQL and NATS, Redis down)', () => {
  const h = portalHarnessPerSuite(async () => ({ REDIS_URL: `redis://127.0.0.1:${await unusedPort()}`, SIGN_IN_FAILURE_LIMIT: '3' }));

  it('still answers 429 after the limit of failed sign-ins for an email, and lets the right password through before it', async () => {
    const ada = await h().person('ada');
    const browser = await h().anonymous();
    expect((await browser.call('POST', '/portal/api/auth/sign-in', { email: ada.email, password: 'correct horse battery' })).status).toBe(
      200,
    );
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await browser.call('POST', '/portal/api/auth/sign-in', { email: ada.email, password: `wrong guess ${i}` });
      answers.push(res.status);
    }
    expect(answers).toEqual([401, 401, 401, 429]);
    const refused = await browser.call('POST', '/portal/api/auth/sign-in', { email: ada.email, password: 'correct horse battery' });
    expect(refused).toEqual({
      status: 429,
      body: expect.objectContaining({
        code: 'TOO_MANY_REQUESTS',
        message: expect.stringMatching(/^Too many failed sign-ins; try again in \d+ seconds$/),
      }),
    });
  });

  it('counts each email on its own', async () => {
    const [bob, cy] = [await h().person('bob'), await h().person('cy')];
    const browser = await h().anonymous();
    for (let i = 0; i < 3; i++) await browser.call('POST', '/portal/api/auth/sign-in', { email: bob.email, password: `wrong ${i}` });
    expect((await browser.call('POST', '/portal/api/auth/sign-in', { email: bob.email, password: 'wrong again' })).status).toBe(429);
    expect((await browser.call('POST', '/portal/api/auth/sign-in', { email: cy.email, password: 'correct horse battery' })).status).toBe(
      200,
    );
  });
});
