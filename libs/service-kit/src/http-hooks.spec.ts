import { loggedPath } from './http-hooks';

describe('loggedPath', () => {
  it('leaves the query string out, whatever it holds', () => {
    expect(loggedPath('/v1/swaps/tokens?x-api-key=svc_AAAAbbbbCCCCdddd&chain=0x1')).toBe('/v1/swaps/tokens');
    expect(loggedPath('/v1/x?apikey=abc')).toBe('/v1/x');
    expect(loggedPath('/v1/x#frag?token=abc')).toBe('/v1/x');
    expect(loggedPath('/v1/be/oracle/candles')).toBe('/v1/be/oracle/candles');
  });

  it('hides invitation tokens in paths', () => {
    expect(loggedPath('/portal/api/invitations/AbC123/accept?x=1')).toBe('/portal/api/invitations/[redacted]/accept');
  });

  it('hides anything shaped like a platform credential in the path', () => {
    expect(loggedPath('/v1/swaps/tokens/slv_abcdefghijk')).toBe('/v1/swaps/tokens/slv_[redacted]');
    expect(loggedPath('/v1/x/svc_AAAAbbbbCCCCdddd/spk_0123456789')).toBe('/v1/x/svc_[redacted]/spk_[redacted]');
  });

  it('hides them when escaped too, even in a path that is not valid UTF-8 once decoded', () => {
    expect(loggedPath('/v1/x/svc%5FAAAAbbbbCCCCdddd')).toBe('/v1/x/svc_[redacted]');
    expect(loggedPath('/portal/api/%69nvitations/AbC123/accept')).toBe('/portal/api/invitations/[redacted]/accept');
    expect(loggedPath('/v1/x/%ff/svc%5FAAAAbbbbCCCCdddd')).not.toContain('AAAA');
    expect(loggedPath('/v1/tokens/%E2%82%AC')).toBe('/v1/tokens/€');
  });
});
