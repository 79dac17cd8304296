import { PassThrough } from 'node:stream';
import { inputTextProblem, MAX_INPUT_DEPTH, printableName } from './input-text';

describe('inputTextProblem', () => {
  it('passes ordinary bodies and queries', () => {
    expect(inputTextProblem({ intent: { srcAddress: '0xabc', amounts: ['1', 2] }, note: 'héllo 👋' }, 'request body')).toBeUndefined();
    expect(inputTextProblem({ txHash: ['a', 'b'] }, 'query')).toBeUndefined();
    expect(inputTextProblem(undefined, 'request body')).toBeUndefined();
    // An unparsed body (a stream, a buffer) is not JSON: not looked into.
    const stream = new PassThrough();
    expect(inputTextProblem(stream, 'request body')).toBeUndefined();
    expect(inputTextProblem(Buffer.from('\u0000'), 'request body')).toBeUndefined();
  });

  it('names the field holding a NUL or an unpaired surrogate', () => {
    expect(inputTextProblem({ partnerFee: { address: 'x\u0000' } }, 'request body')?.message).toBe(
      'partnerFee.address must not contain NUL characters (\\u0000)',
    );
    expect(inputTextProblem({ name: '\ud800' }, 'request body')?.message).toBe(
      'name must not contain unpaired UTF-16 surrogates (it is not Unicode text)',
    );
    expect(inputTextProblem({ list: ['ok', 'b\u0000'] }, 'request body')?.message).toBe(
      'list[1] must not contain NUL characters (\\u0000)',
    );
    expect(inputTextProblem('\u0000', 'request body')?.message).toBe('request body must not contain NUL characters (\\u0000)');
    function Empty() {}
    Empty.prototype = Object.create(null);
    const query = new (Empty as unknown as new () => Record<string, string>)();
    query.txHash = '0x1\u0000';
    expect(inputTextProblem(query, 'query')?.message).toBe('txHash must not contain NUL characters (\\u0000)');
    expect(inputTextProblem({ ['k\u0000']: 1 }, 'query')?.message).toBe(
      'a field name in the query must not contain NUL characters (\\u0000)',
    );
  });

  it('refuses nesting beyond the limit without recursing (no stack overflow at 100 000 levels)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) deep = { a: deep };
    expect(inputTextProblem(deep, 'request body')).toBeUndefined();
    expect(inputTextProblem({ a: deep }, 'request body')?.message).toBe(
      `the request body is nested more than ${MAX_INPUT_DEPTH} levels deep`,
    );
    const huge = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(inputTextProblem(huge, 'request body')?.message).toBe(`the request body is nested more than ${MAX_INPUT_DEPTH} levels deep`);
  });

  it('names the field and the rule', () => {
    expect(inputTextProblem({ partnerFee: { address: 'x\u0000' } }, 'request body')).toEqual({
      field: 'partnerFee.address',
      rule: 'noNul',
      message: 'partnerFee.address must not contain NUL characters (\\u0000)',
    });
    expect(inputTextProblem({ name: '\ud800' }, 'query')).toMatchObject({ field: 'name', rule: 'unicodeText' });
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_INPUT_DEPTH; i++) deep = { a: deep };
    expect(inputTextProblem(deep, 'request body')).toMatchObject({ field: 'request body', rule: 'maxDepth' });
  });

  it('shows field names escaped and cut', () => {
    expect(printableName('a\u0007b')).toBe('a\\u0007b');
    expect(printableName('x'.repeat(500))).toBe(`${'x'.repeat(64)}…`);
  });
});
