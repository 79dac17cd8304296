import { AppError, ErrorCode } from '@swap/contracts';
import { callService } from './service-calls';

describe("the portal's calls to its services", () => {
  const failing = (error: unknown) => () => Promise.reject(error);

  it('answers 503 retryable when the service did not answer or refused the portal’s signature (a rollout, keys not a pair)', async () => {
    for (const error of [
      new AppError(503, ErrorCode.DependencyUnavailable, 'An internal service is unavailable; retry later'),
      new AppError(504, ErrorCode.DependencyTimeout, 'An internal service did not answer in time; retry later'),
      new AppError(401, ErrorCode.Unauthorized, 'This request must be signed by partner-portal-api: it carries no signature'),
    ]) {
      const refused = await callService('key service', failing(error)).catch((e: unknown) => e);
      expect((refused as AppError).toBody()).toEqual({
        statusCode: 503,
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'The key service is unavailable right now; retry in a moment',
        details: { retryable: true },
      });
    }
  });

  it("passes the service's own answers through: a rule the input broke, a conflict", async () => {
    const conflict = new AppError(409, ErrorCode.Conflict, 'At most 5 endpoints per organisation');
    await expect(callService('webhook service', failing(conflict))).rejects.toBe(conflict);
    await expect(callService('webhook service', async () => 'answer')).resolves.toBe('answer');
  });
});
