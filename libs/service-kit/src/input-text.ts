/** How deep a request body may nest (the deepest DTO here is three levels). */
export const MAX_INPUT_DEPTH = 32;

const MAX_NAME_IN_MESSAGE = 64;

/** A field name as it may appear in a message: control characters shown escaped, cut at 64 characters. */
export function printableName(name: string): string {
  const shown = printableText(name);
  return shown.length > MAX_NAME_IN_MESSAGE ? `${shown.slice(0, MAX_NAME_IN_MESSAGE)}…` : shown;
}

/**
 * Text with its control characters (C0, DEL, C1, line and paragraph separators, and the
 * bidirectional overrides that reorder what a reader sees) shown as \uXXXX escapes.
 */
export function printableText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * What no request may carry, whatever the route (checked before validation, so no handler,
 * database or validator ever sees it): a body nested deeper than MAX_INPUT_DEPTH (the
 * validator recurses and would overflow the stack), text with a NUL character (PostgreSQL
 * cannot store it) or an unpaired UTF-16 surrogate (not Unicode text; JSON columns refuse
 * it). Answers the first problem found, naming where it is, or undefined.
 */
export function inputTextProblem(value: unknown, where: string): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return `${path || where} must not contain ${problem}`;
      continue;
    }
    // Parsed JSON and query strings only: a body left unparsed (the gateway streams it) is not looked into.
    if (!isPlainValue(v)) continue;
    if (depth >= MAX_INPUT_DEPTH) return `the ${where} is nested more than ${MAX_INPUT_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(v)) {
      const problem = textProblem(key);
      if (problem) return `a field name in the ${where} must not contain ${problem}`;
      stack.push({
        value: child,
        path: Array.isArray(v) ? `${path}[${key}]` : path ? `${path}.${printableName(key)}` : printableName(key),
        depth: depth + 1,
      });
    }
  }
  return undefined;
}

function isPlainValue(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  // A JSON object, or a parsed query string (fast-querystring's objects have a bare prototype of their own).
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters (\\u0000)';
  if (UNPAIRED_SURROGATE.test(text)) return 'unpaired UTF-16 surrogates (it is not Unicode text)';
  return undefined;
}
