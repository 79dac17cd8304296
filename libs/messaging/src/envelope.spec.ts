import { AppError, toErrorBody } from '@swap/contracts';
import { decodeReply, encodeErrorReply, encodeReply, okReplyData } from './envelope';

describe('reply envelope', () => {
  it('round-trips a result', () => {
    expect(decodeReply(encodeReply({ a: [1, '2'] }))).toEqual({ ok: true, data: { a: [1, '2'] } });
  });

  it('carries an AppError as its status, code, message and details', () => {
    const reply = decodeReply(encodeErrorReply(new AppError(404, 'CHAIN_NOT_FOUND', 'Unknown chain key: x')));
    expect(reply).toEqual({ ok: false, error: { statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: x' } });
  });

  it('turns an unexpected error into a 500 that reveals nothing', () => {
    expect(toErrorBody(new Error('password=hunter2 in stack'))).toEqual({
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      message: 'Internal server error',
    });
  });

  it('hands out the data of a successful reply as JSON text, untouched', () => {
    const text = encodeReply({ tx: { data: '0xabc' }, list: [1, 2] });
    expect(okReplyData(text)).toBe('{"tx":{"data":"0xabc"},"list":[1,2]}');
    expect(okReplyData(encodeErrorReply(new AppError(400, 'X', 'no')))).toBeUndefined();
  });

  it('refuses a reply that is not an envelope', () => {
    expect(() => decodeReply('42')).toThrow(AppError);
  });
});
