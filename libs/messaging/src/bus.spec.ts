import { isInboxSubject } from './bus';

describe('isInboxSubject (the only reply addresses a responder answers into)', () => {
  it.each(['_INBOX.abc123', '_INBOX.abc.7', '_INBOX_swap-gateway.Qx9.2', '_INBOX_operator.x'])('takes %s', (reply) => {
    expect(isInboxSubject(reply)).toBe(true);
  });

  it.each([
    'key-registry.modes.set.v1',
    'key-registry.keyset.changed.v2',
    '_INBOX',
    '_INBOX.',
    '_INBOX_.x',
    '_INBOX.>',
    '_INBOX.*',
    '_INBOX_swap-gateway.>',
    'x._INBOX.abc',
    '_INBOXES.abc',
    '_INBOX.a b',
  ])('refuses %s', (reply) => {
    expect(isInboxSubject(reply)).toBe(false);
  });
});
