import { operatorHeaders } from './operator-headers';

const TOKEN = '4c1f0e9a7b3d25866e0a9c3b7d1f5a20';

describe('operatorHeaders', () => {
  it('sends the token as Authorization: Bearer, from a bare token or a name:token pair', () => {
    expect(operatorHeaders(TOKEN)).toEqual({ authorization: `Bearer ${TOKEN}` });
    expect(operatorHeaders(`alice:${TOKEN}`)).toEqual({ authorization: `Bearer ${TOKEN}` });
  });

  it('sends nothing without OPS_TOKEN, and never a self-declared operator name', () => {
    expect(operatorHeaders(undefined)).toEqual({});
    expect(Object.keys(operatorHeaders(`alice:${TOKEN}`))).toEqual(['authorization']);
  });

  it('refuses the services’ whole list', () => {
    expect(() => operatorHeaders(`alice:${TOKEN},bob:${TOKEN.toUpperCase()}`)).toThrow(/one operator’s token/);
  });
});
