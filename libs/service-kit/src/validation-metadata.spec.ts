import { getMetadataStorage, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import { cacheValidationRules } from './validation-metadata';

class Page {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsString()
  cursor!: string;
}

const failures = (value: object) =>
  validateSync(value, { whitelist: true, forbidNonWhitelisted: true }).map((e) => [e.property, Object.keys(e.constraints ?? {}).sort()]);

const page = (fields: Partial<Page> & Record<string, unknown>) => Object.assign(new Page(), fields);

describe('cacheValidationRules (class-validator rules looked up once per class)', () => {
  const cases = [page({ cursor: 'c' }), page({ cursor: 'c', limit: 0 }), page({ limit: 1.5 }), page({ cursor: 'c', extra: 1 })];
  const before = cases.map(failures);

  beforeAll(() => cacheValidationRules());

  it('answers as before, looking a class’s rules up once however often it is validated', () => {
    const storage = getMetadataStorage();
    const lookups = jest.spyOn(storage, 'getTargetValidationMetadatas');
    expect(cases.map(failures)).toEqual(before);
    expect(cases.map(failures)).toEqual(before);
    expect(before).toEqual([
      [],
      [['limit', ['min']]],
      [
        ['limit', ['isInt']],
        ['cursor', ['isString']],
      ],
      [['extra', ['whitelistValidation']]],
    ]);
    expect(new Set(lookups.mock.results.map((r) => r.value)).size).toBe(1);
    lookups.mockRestore();
  });

  it('sees rules declared after it started: a class defined later, a subclass adding to its parent’s, a rule added to a class already validated', () => {
    class Later {
      @IsInt()
      n!: number;
    }
    class LongPage extends Page {
      @Min(10)
      @IsInt()
      minimum!: number;
    }
    expect(failures(Object.assign(new Later(), { n: 'x' }))).toEqual([['n', ['isInt']]]);
    expect(failures(Object.assign(new LongPage(), { cursor: 'c', limit: 500, minimum: 3 }))).toEqual([
      ['minimum', ['min']],
      ['limit', ['max']],
    ]);
    expect(failures(page({ cursor: 'c', limit: 500 }))).toEqual([['limit', ['max']]]);
    // A rule added to a class already validated (and its rules kept).
    IsString()(Page.prototype, 'note');
    expect(failures(page({ cursor: 'c', note: 5 } as never))).toEqual([['note', ['isString']]]);
  });
});
