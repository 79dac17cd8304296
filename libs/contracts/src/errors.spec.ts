import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { AppError, toErrorBody } from './errors';

describe('toErrorBody', () => {
  it('keeps an AppError as it is', () => {
    expect(toErrorBody(new AppError(409, 'CONFLICT', 'Two active keys already exist'))).toMatchObject({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Two active keys already exist',
    });
  });

  it('rewords the router 404 and gives it a stable code', () => {
    expect(toErrorBody(new NotFoundException('Cannot GET /v1/nope'))).toMatchObject({
      statusCode: 404,
      code: 'ROUTE_NOT_FOUND',
      message: 'No route for GET /v1/nope',
    });
  });

  it('maps framework errors by status (body too large, bad JSON)', () => {
    expect(toErrorBody(new HttpException('Request body is too large', 413))).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(toErrorBody(new BadRequestException("Body is not valid JSON but content-type is set to 'application/json'"))).toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'Request body is not valid JSON',
    });
  });

  it('hides unexpected errors behind a 500', () => {
    expect(toErrorBody(new TypeError('x is undefined'))).toMatchObject({
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      message: 'Internal server error',
    });
  });
});

describe('AppError over the wire', () => {
  it('rebuilds the same error from its body', () => {
    const original = AppError.validation([{ field: 'amount', rule: 'isNumberString', message: 'amount must be a number string' }]);
    const rebuilt = AppError.fromBody(JSON.parse(JSON.stringify(original.toBody())));
    expect(rebuilt.getStatus()).toBe(400);
    expect(rebuilt.toBody()).toEqual(original.toBody());
  });

  it('passes a plain error body through, but never an Error that merely looks like one', () => {
    expect(toErrorBody({ statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: x' })).toEqual({
      statusCode: 404,
      code: 'CHAIN_NOT_FOUND',
      message: 'Unknown chain key: x',
    });
    const fastifyLike = Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toErrorBody(fastifyLike)).toEqual({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' });
  });
});
