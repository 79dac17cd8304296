import { redactUrl } from './http-hooks';

describe('redactUrl', () => {
  it('hides invitation tokens in paths', () => {
    expect(redactUrl('/portal/api/invitations/AbC123/accept')).toBe('/portal/api/invitations/[redacted]/accept');
  });

  it('hides query values named like a secret, whatever their case or escapes, and keeps the rest', () => {
    expect(redactUrl('/v1/swaps/tokens?x-api-key=abc&chain=0x1')).toBe('/v1/swaps/tokens?x-api-key=[redacted]&chain=0x1');
    expect(redactUrl('/v1/x?X_API_KEY=a&apiKey=b&token=c&ops%5Ftoken=d&q=1')).toBe('/v1/x?X_API_KEY=[redacted]&apiKey=[redacted]&token=[redacted]&ops%5Ftoken=[redacted]&q=1');
    expect(redactUrl('/v1/x?%zz=1')).toBe('/v1/x?%zz=1');
  });

  it('hides anything shaped like a platform credential wherever it stands', () => {
    expect(redactUrl('/v1/x?note=svc_AAAAbbbbCCCCdddd&y=spk_0123456789')).toBe('/v1/x?note=svc_[redacted]&y=spk_[redacted]');
    expect(redactUrl('/v1/swaps/tokens/slv_abcdefghijk')).toBe('/v1/swaps/tokens/slv_[redacted]');
  });
});
