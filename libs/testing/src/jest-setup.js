// Candle buckets and deadlines are UTC; every test run is too (CONVENTIONS.md).
process.env.TZ = 'UTC';
