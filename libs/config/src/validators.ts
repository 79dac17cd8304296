import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';

/** A URL (or a comma-separated list of them) whose scheme is one of `protocols`. */
export function IsServiceUrl(protocols: string[], options?: ValidationOptions & { list?: boolean }): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isServiceUrl',
      constraints: [protocols],
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'string') return false;
          const items = options?.list ? value.split(',').map((s) => s.trim()) : [value];
          return items.every((item) => {
            try {
              const url = new URL(item);
              return protocols.includes(url.protocol.replace(/:$/, '')) && url.hostname.length > 0;
            } catch {
              return false;
            }
          });
        },
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a URL with scheme ${protocols.map((p) => `${p}://`).join(' or ')}`,
          options,
        ),
      },
    },
    options,
  );
}
