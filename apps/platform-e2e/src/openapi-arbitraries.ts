import fc from 'fast-check';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Text a hostile or careless client sends: empty, huge, control characters, broken Unicode, lookalikes. */
const NASTY_TEXT = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  '0x',
  '0X',
  `0x${'f'.repeat(40)}`,
  `0x${'F'.repeat(64)}`,
  `0x${'0'.repeat(40)}`,
  '0xA4B1.ARBITRUM',
  '0xa4b1.arbitrum',
  '0x92.sonic',
  'solana',
  'exact_input',
  'a'.repeat(5_000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u0007\u001b[31m',
  '\u202e',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{{7*7}}',
  '__proto__',
  'null',
  'true',
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  '99999999999999999999999999999999999999999999999999999999999999999999999999999999',
  'svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
];

const odd = fc.oneof(
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(...NASTY_TEXT),
);

export const nastyText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/**
 * Values for a schema of the document: mostly what it asks for (its examples, and text of
 * the right shape with boundary values), sometimes a field left out, an extra field, or
 * a value of the wrong type, so that validation at every depth is walked.
 */
export function valueFor(schema: any, doc: any, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return odd;
  if (schema.$ref) return valueFor(resolve(schema.$ref, doc), doc, depth + 1);
  if (schema.anyOf || schema.oneOf || schema.allOf)
    return fc.oneof(...(schema.anyOf ?? schema.oneOf ?? schema.allOf).map((s: any) => valueFor(s, doc, depth + 1)));
  const right = rightValue(schema, doc, depth);
  return fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: odd });
}

function rightValue(schema: any, doc: any, depth: number): fc.Arbitrary<unknown> {
  const examples: unknown[] = [schema.example, schema.default, ...(schema.enum ?? [])].filter((v) => v !== undefined);
  const of = (arb: fc.Arbitrary<unknown>) =>
    examples.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...examples) }, arb) : arb;
  switch (schema.type) {
    case 'string':
      return of(nastyText);
    case 'integer':
      return of(fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 100, 101, 10_000, 2 ** 31, 2 ** 53, -(2 ** 53)), fc.double()));
    case 'number':
      return of(fc.oneof(fc.double({ noNaN: true }), fc.integer()));
    case 'boolean':
      return of(fc.boolean());
    case 'array':
      return fc.array(valueFor(schema.items, doc, depth + 1), { maxLength: 4 });
    default: {
      const properties: Record<string, any> = schema.properties ?? {};
      const names = Object.keys(properties);
      if (!names.length) return of(fc.dictionary(nastyText, odd, { maxKeys: 3 }));
      const record = fc.record(Object.fromEntries(names.map((n) => [n, valueFor(properties[n], doc, depth + 1)])), { requiredKeys: [] });
      // Mostly every required field present, sometimes any subset, sometimes an unknown field too.
      const complete = fc.record(Object.fromEntries(names.map((n) => [n, valueFor(properties[n], doc, depth + 1)])));
      return fc.oneof(
        { weight: 3, arbitrary: complete },
        { weight: 2, arbitrary: record },
        { weight: 1, arbitrary: fc.tuple(complete, nastyText, odd).map(([o, k, v]) => ({ ...(o as object), [k]: v })) },
      );
    }
  }
}

function resolve(ref: string, doc: any): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node, key) => node?.[key], doc);
}
