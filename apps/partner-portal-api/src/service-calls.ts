import { AppError, ErrorCode } from '@swap/contracts';

/** No answer, or a refusal of the portal's signature (a rollout, keys not a pair; the service logs why), is a 503 to retry: the user did nothing wrong. */
export async function callService<T>(service: 'key service' | 'webhook service' | 'swap service', call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof AppError &&
      (error.code === ErrorCode.DependencyUnavailable || error.code === ErrorCode.DependencyTimeout || error.getStatus() === 401)
    ) {
      throw new AppError(503, ErrorCode.DependencyUnavailable, `The ${service} is unavailable right now; retry in a moment`, {
        retryable: true,
      });
    }
    throw error;
  }
}
