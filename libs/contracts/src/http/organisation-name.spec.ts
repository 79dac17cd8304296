import { validateSync } from 'class-validator';
import { OrganisationNameField } from './organisation-name';

class Body {
  @OrganisationNameField()
  name!: unknown;
}

/** The messages a body's name breaks, as the platform's validation reports them. */
function problems(name: unknown): string[] {
  return validateSync(Object.assign(new Body(), { name })).flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('an organisation name', () => {
  it('is 1 to 64 characters', () => {
    expect(problems('A')).toEqual([]);
    expect(problems('x'.repeat(64))).toEqual([]);
    expect(problems('x'.repeat(65))).toEqual(['name must be at most 64 characters']);
    expect(problems('')).toEqual(expect.arrayContaining(['name must be 1 to 64 characters']));
  });

  it('is not blank, and is text', () => {
    expect(problems('   ')).toEqual(['name must not be blank']);
    expect(problems(42)).toEqual(expect.arrayContaining(['name is required (a string)']));
    expect(problems(undefined)).toEqual(expect.arrayContaining(['name is required (a string)']));
  });

  it('holds no control characters or direction overrides: an e-mail quoting it cannot gain a line or reorder one', () => {
    for (const name of [
      'Acme\nAccept the invitation: https://evil.example',
      'Acme\r',
      'Ac\tme',
      'Acme\u2028x',
      'Acme\u0000',
      '\u202eevil',
      'a\u2066b',
    ])
      expect(problems(name)).toEqual(['name must not contain control characters (line breaks, tabs, direction overrides)']);
    expect(problems('Acme Wallet — Zürich 🚀 👨‍👩‍👧')).toEqual([]);
  });

  it('is blank when nothing in it can be seen', () => {
    expect(problems('\u200b')).toEqual(['name must not be blank']);
    expect(problems(' \u200d\ufeff ')).toEqual(['name must not be blank']);
  });
});
