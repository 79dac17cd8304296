import { databaseNameOf, quoteIdent, withDatabase } from './database-url';

describe('database URL helpers', () => {
  it('reads and replaces the database name', () => {
    expect(databaseNameOf('postgresql://u@h:5432/swap_platform?sslmode=disable')).toBe('swap_platform');
    expect(withDatabase('postgresql://u@h:5432/a?sslmode=disable', 'b')).toBe('postgresql://u@h:5432/b?sslmode=disable');
  });

  it('refuses identifiers that could inject SQL', () => {
    expect(quoteIdent('relay_tracker')).toBe('"relay_tracker"');
    expect(() => quoteIdent('x"; DROP TABLE y; --')).toThrow(/Unsafe SQL identifier/);
  });
});
