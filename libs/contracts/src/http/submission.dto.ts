import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  LeverageOperation,
  SubmissionResult,
  SubmissionStatus,
  SubmissionStatusResponse,
  SubmissionTransition,
  SubmitTxResponse,
} from '../domain/intent';

/* Response shapes of submit-tx and its status (spec: Submit request, Submission status). */

const STATUSES: SubmissionStatus[] = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved', 'failed'];

class SubmitTxResultDto {
  @ApiProperty({
    enum: ['inserted', 'duplicate'],
    example: 'inserted',
    description: 'inserted the first time, duplicate on a repeat (nothing changes)',
  })
  status!: 'inserted' | 'duplicate';

  @ApiProperty({ example: 'Submission recorded; poll GET /v1/swaps/submit-tx/status' })
  message!: string;
}

export class SubmitTxResponseDto implements SubmitTxResponse {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ type: SubmitTxResultDto })
  data!: SubmitTxResultDto;
}

class SubmissionTransitionDto implements SubmissionTransition {
  @ApiProperty({ enum: STATUSES, example: 'relaying' })
  status!: SubmissionStatus;

  @ApiProperty({ example: '2026-11-23T10:00:03.120Z' })
  at!: string;

  @ApiProperty({ example: 'source transaction confirmed; relaying to the hub' })
  detail!: string;

  @ApiProperty({
    example: 1840,
    description: 'Milliseconds spent in the step this entry closes (from the previous entry; 0 for the first, and for steps taken at once)',
  })
  durationMs!: number;
}

class SubmissionResultDto implements SubmissionResult {
  @ApiPropertyOptional({ description: 'The hub transaction that created the intent (the source transaction for a hub source)' })
  hubTxHash?: string;

  @ApiPropertyOptional({ description: 'The hub transaction in which a solver filled it' })
  fillTxHash?: string;

  @ApiPropertyOptional({ description: 'For a spoke destination: the transaction that paid the receiver there' })
  deliveryTxHash?: string;
}

/** The data of a submission's status answer (also the explorer's swap lookup). */
export class SubmissionStatusDataDto {
  @ApiProperty({ example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' })
  txHash!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  srcChainKey!: string;

  @ApiProperty({
    enum: STATUSES,
    example: 'solved',
    description: 'pending → relaying → relayed → posting_execution → posted_execution → solved, or failed from any of them',
  })
  status!: SubmissionStatus;

  @ApiPropertyOptional({ description: 'With failed: what happened, for a person' })
  userMessage?: string;

  @ApiPropertyOptional({ enum: STATUSES, description: 'With failed: the status it failed in' })
  failedAtStep?: SubmissionStatus;

  @ApiProperty({ example: 0, description: 'Steps tried since the last move (waits and transient errors; they never fail a swap)' })
  processingAttempts!: number;

  @ApiPropertyOptional({ type: SubmissionResultDto })
  result?: SubmissionResultDto;

  @ApiPropertyOptional({ description: 'With failed: the intent was cancelled on the hub (its input refunded)' })
  intentCancelled?: boolean;

  @ApiPropertyOptional({
    enum: ['leverage_deposit', 'leverage_withdraw'],
    description: 'A leveraged-yield submission (POST /v1/leverage-yield/submit-tx); absent for a swap',
  })
  operation?: LeverageOperation;

  @ApiProperty({ type: [SubmissionTransitionDto] })
  history!: SubmissionTransitionDto[];

  @ApiProperty({ example: '0x9a0e…', description: 'keccak256(abi.encode(intent))' })
  intentHash!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-23T10:00:04.310Z' })
  updatedAt!: string;

  @ApiProperty({ example: true, description: 'solved or failed: the status will not change again (stop polling)' })
  terminal!: boolean;
}

export class SubmissionStatusResponseDto implements SubmissionStatusResponse {
  @ApiProperty({ enum: [true], example: true })
  success!: true;

  @ApiProperty({ type: SubmissionStatusDataDto })
  data!: SubmissionStatusDataDto;
}

export class IntentHashResponseDto {
  @ApiProperty({
    example: '0x9a0e5e8f0b2b7d3c4c1f4f1a3b1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e',
    description: 'keccak256(abi.encode(intent)), 0x-hex',
  })
  hash!: string;
}
