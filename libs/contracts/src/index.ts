export * from './errors';
export * from './services';
export * from './subjects';
export * from './domain/token';
export * from './http/token.dto';
export * from './http/error-body.dto';
export * from './domain/candle';
export * from './http/candles.dto';
