import { OtlpReceiver } from '@swap/testing';

/** The bench's collector (its own process, so the load generator does not pay for it): takes every export on OTLP_PORT and answers at once. */
void OtlpReceiver.start(Number(process.env.OTLP_PORT));
