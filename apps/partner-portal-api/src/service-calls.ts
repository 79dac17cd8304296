import { AppError, ErrorCode } from '@swap/contracts';

/**
 * A call of the portal's to key-registry or relay-tracker over the bus. No answer, or a refusal
 * of the portal's signature (401: a release rolling out, or PORTAL_SIGNING_KEY and the services'
 * PORTAL_PUBLIC_KEY that are not a pair; the service logs why, docs/architecture/bus-signatures.md),
 * is a 503 the portal may retry: the signed-in user did nothing wrong.
 */
export async function callService<T>(service: 'key service' | 'webhook service', call: () => Promise<T>): Promise<T> {
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
