import type { ExecutionContext } from '@nestjs/common';
import { loadConfig, ServiceConfig, WithOperatorRoutes } from '@swap/config';
import { AppError } from '@swap/contracts';
import type { FastifyRequest } from 'fastify';
import { OperatorGuard, operatorOf, operatorTokenFrom } from './operator.guard';

class OpsConfig extends WithOperatorRoutes(ServiceConfig) {}

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef01';

/** The guard as a service builds it: OPS_TOKEN read by the configuration, handed over by the provider. */
function guardFor(env: Record<string, string>): OperatorGuard {
  const config = loadConfig(OpsConfig, { HOST: '127.0.0.1', ...env });
  const provider = operatorTokenFrom(OpsConfig) as { useFactory: (config: OpsConfig) => ConstructorParameters<typeof OperatorGuard>[0] };
  return new OperatorGuard(provider.useFactory(config));
}

function request(headers: Record<string, string>, remoteAddress = '127.0.0.1'): FastifyRequest {
  return { headers, socket: { remoteAddress } } as unknown as FastifyRequest;
}

/** What the guard answers: the actor it let in, or the refusal's status and message. */
function outcome(guard: OperatorGuard, req: FastifyRequest): string | { status: number; message: string } {
  const context = { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
  try {
    guard.canActivate(context);
    return operatorOf(req);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.getStatus(), message: error.message };
  }
}

const NEEDS_BEARER = { status: 401, message: 'Operator routes need Authorization: Bearer <OPS_TOKEN>' };

describe('OperatorGuard', () => {
  it('takes only Authorization: Bearer <token>, not the bare token', () => {
    const guard = guardFor({ OPS_TOKEN: ALICE });
    expect(outcome(guard, request({ authorization: ALICE }))).toEqual(NEEDS_BEARER);
    expect(outcome(guard, request({ authorization: `Basic ${ALICE}` }))).toEqual(NEEDS_BEARER);
    expect(outcome(guard, request({ authorization: `Bearer  ${ALICE}` }))).toEqual(NEEDS_BEARER);
    expect(outcome(guard, request({ authorization: `Bearer ${ALICE}x` }))).toEqual(NEEDS_BEARER);
    expect(outcome(guard, request({}))).toEqual(NEEDS_BEARER);
    expect(outcome(guard, request({ authorization: `Bearer ${ALICE}` }))).toBe('operator:operator');
    expect(outcome(guard, request({ authorization: `bearer ${ALICE}` }))).toBe('operator:operator');
  });

  it('asks a loopback caller for the token too once one is set', () => {
    expect(outcome(guardFor({ OPS_TOKEN: ALICE }), request({}, '::1'))).toEqual(NEEDS_BEARER);
  });

  it('names the actor after the matched credential, whatever x-operator says', () => {
    const guard = guardFor({ OPS_TOKEN: `alice:${ALICE}, bob:${BOB}` });
    expect(outcome(guard, request({ authorization: `Bearer ${BOB}`, 'x-operator': 'alice' }))).toBe('operator:bob');
    expect(outcome(guard, request({ authorization: `Bearer ${ALICE}`, 'x-operator': 'bob' }))).toBe('operator:alice');
    expect(outcome(guard, request({ authorization: `Bearer bob:${BOB}` }))).toEqual(NEEDS_BEARER);
  });

  it('without a token, lets loopback callers in as the loopback operator and refuses everyone else', () => {
    const guard = guardFor({});
    expect(outcome(guard, request({ 'x-operator': 'alice' }, '127.0.0.1'))).toBe('operator:loopback');
    expect(outcome(guard, request({}, '::ffff:127.0.0.1'))).toBe('operator:loopback');
    expect(outcome(guard, request({ 'x-forwarded-for': '127.0.0.1' }, '10.1.2.3'))).toEqual({
      status: 403,
      message: 'Operator routes answer loopback callers only unless OPS_TOKEN is set',
    });
  });
});
