/** The deepest DTO here is three levels. */
export const MAX_INPUT_DEPTH = 32;

const MAX_NAME_IN_MESSAGE = 64;

export function printableName(name: string): string {
  const shown = printableText(name);
  return shown.length > MAX_NAME_IN_MESSAGE ? `${shown.slice(0, MAX_NAME_IN_MESSAGE)}…` : shown;
}

/** Control characters, bidirectional overrides included, shown as \uXXXX escapes. */
export function printableText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A refusal naming where (a field's path, else `query`, `path` or `request body`) and the rule. */
export interface InputProblem {
  field: string;
  rule: string;
  message: string;
}

/** What no request may carry; see docs/architecture/runtime.md#http-in-every-service. */
export function inputTextProblem(value: unknown, where: string): InputProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { field: path || where, rule: problem.rule, message: `${path || where} must not contain ${problem.text}` };
      continue;
    }
    if (!isPlainValue(v)) continue;
    if (depth >= MAX_INPUT_DEPTH)
      return { field: where, rule: 'maxDepth', message: `the ${where} is nested more than ${MAX_INPUT_DEPTH} levels deep` };
    for (const [key, child] of Object.entries(v)) {
      const problem = textProblem(key);
      if (problem)
        return { field: path || where, rule: problem.rule, message: `a field name in the ${where} must not contain ${problem.text}` };
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
  // fast-querystring's objects have a bare prototype of their own.
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): { rule: string; text: string } | undefined {
  if (text.includes('\u0000')) return { rule: 'noNul', text: 'NUL characters (\\u0000)' };
  if (UNPAIRED_SURROGATE.test(text)) return { rule: 'unicodeText', text: 'unpaired UTF-16 surrogates (it is not Unicode text)' };
  return undefined;
}
