import { ValidateBy, buildMessage, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { isIP } from 'node:net';

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

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(item: string): boolean {
  if (PROXY_NAMES.has(item)) return true;
  const [address, bits, extra] = item.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function IsTrustedProxyList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustedProxyList',
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'string') return false;
          if (value.trim() === '') return true;
          return value.split(',').every((item) => isProxyEntry(item.trim()));
        },
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal`,
          options,
        ),
      },
    },
    options,
  );
}

export function trustedProxies(list: string): string[] | false {
  const items = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : false;
}

export function isLoopbackAddress(address: string): boolean {
  const host = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const v4 = host.startsWith('::ffff:') ? host.slice(7) : host;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export function IsNotBelow(other: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotBelow',
      constraints: [other],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const floor = (args?.object as Record<string, unknown> | undefined)?.[other];
          return typeof value !== 'number' || typeof floor !== 'number' || value >= floor;
        },
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must not be below ${other} (${String((args?.object as Record<string, unknown> | undefined)?.[other])})`,
      },
    },
    options,
  );
}
