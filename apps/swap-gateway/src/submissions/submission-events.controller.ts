import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  ApiBadRequestResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiTag,
  AppError,
  canonicalTxHash,
  ErrorBodyDto,
  type EventContract,
  Events,
  STREAM_EVENT_ID,
  Subjects,
  SubmissionEventsQueryDto,
  txHashProblemOn,
} from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { MessagingClient } from '@swap/messaging';
import { createSession } from 'better-sse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEARTBEAT_MS, SubmissionStreams } from './submission-streams';

/** After a stream ends without a terminal status (a replica stopping). */
const RECONNECT_AFTER_MS = 1_000;

/** The status of a submission pushed as server-sent events (docs/integrators/push-status.md). */
@Controller('v1/swaps/submit-tx')
export class SubmissionEventsController {
  constructor(
    private readonly messaging: MessagingClient,
    private readonly catalog: ChainCatalogMirror,
    private readonly streams: SubmissionStreams,
  ) {}

  @Get('events')
  @ApiTags(ApiTag.track)
  @ApiOperation({
    summary: 'The status of a submission as a stream of server-sent events, one per transition, until terminal',
    description: [
      'Each event is one history entry: `id` its place in the history (from 1), `event` the status, `data` the JSON of the',
      "status answer's `data` as it was at that transition. The history is replayed first (after `Last-Event-ID`, or",
      '`lastEventId`, when given), then each new transition is sent as it happens; a comment line comes every 15 s, and',
      'the stream closes after solved or failed. A resume after the terminal event is answered 204 (an EventSource stops).',
    ].join(' '),
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this event id (sent by an EventSource when it reconnects)',
  })
  @ApiOkResponse({
    description: 'An event stream: `id: <seq>`, `event: <status>`, `data: <the status answer data JSON>` per transition',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiNoContentResponse({ description: 'Nothing follows the given event id and the swap is terminal: nothing more will come' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A parameter or Last-Event-ID is not valid' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No submission of this transaction on this network (no stream starts)' })
  async events(@Query() query: SubmissionEventsQueryDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const chain = await this.catalog.chain(query.srcChainKey);
    const after = lastEventIdOf(request.headers['last-event-id'], query.lastEventId);
    const problem = txHashProblemOn(chain.type, 'txHash', query.txHash);
    if (problem) throw AppError.validation([problem]);
    const target = { txHash: canonicalTxHash(chain.type, query.txHash), srcChainKey: chain.key };
    // Listening before the replay is read: a transition committed meanwhile is heard, not lost.
    const stream = this.streams.watch(target, after);
    try {
      const { events, last, terminal } = await this.messaging.request(Subjects.submissionEvents, { ...target, after });
      if (after > last) {
        throw AppError.validation([
          {
            field: 'Last-Event-ID',
            rule: 'knownEvent',
            message: `Last-Event-ID must be the id of an event of this stream; its last is ${last}`,
          },
        ]);
      }
      if (terminal && after === last) {
        stream.close();
        void reply.code(204).header('cache-control', 'no-store').send();
        return;
      }
      reply.hijack();
      const session = await createSession(request.raw, reply.raw, {
        keepAlive: HEARTBEAT_MS,
        retry: RECONNECT_AFTER_MS,
        trustClientEventId: false,
        headers: { 'x-request-id': String(request.id), 'x-accel-buffering': 'no' },
      });
      stream.start(session, reply.raw, events);
    } catch (error) {
      stream.close();
      throw error;
    }
  }

  /** No queue group: every replica hears each transition. */
  @EventPattern(Events.submissionTransitioned)
  transitioned(@Payload() event: EventContract[typeof Events.submissionTransitioned]): void {
    this.streams.deliver(event);
  }
}

/** The Last-Event-ID header, else the lastEventId parameter, else 0. */
function lastEventIdOf(header: string | string[] | undefined, parameter: string | undefined): number {
  const given = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!given) return Number(parameter ?? 0);
  if (!STREAM_EVENT_ID.test(given)) {
    throw AppError.validation([
      {
        field: 'Last-Event-ID',
        rule: 'streamEventId',
        message: 'Last-Event-ID must be the id of an event of this stream (a whole number from 0)',
      },
    ]);
  }
  return Number(given);
}
