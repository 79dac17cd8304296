import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { RequestContext } from './request-context';
import { activeTraceIds } from './tracing';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level?: string;
  destination?: DestinationStream;
}

/** Request id, organisation and trace ids come from the context: no call site passes them. */
export function createLogger(options: LoggerOptions): Logger {
  // Asynchronous, so a request never waits on the log; flush() at shutdown writes what is pending.
  const destination = options.destination ?? pino.destination({ dest: 1, sync: false });
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const context = RequestContext.current();
        const fields: Record<string, string> = {};
        if (context) {
          fields.requestId = context.requestId;
          if (context.orgId) fields.orgId = context.orgId;
        }
        const ids = activeTraceIds();
        if (ids) {
          fields.traceId = ids.traceId;
          fields.spanId = ids.spanId;
        }
        return fields;
      },
    },
    destination,
  );
}

export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    // Nest passes the context (class name) as the last string parameter.
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as object) });
    } else {
      const stack = level === 'error' && typeof params[0] === 'string' ? params[0] : undefined;
      this.logger[level](stack ? { ...fields, stack } : fields, String(message));
    }
  }
}
