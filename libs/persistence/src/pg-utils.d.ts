declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
