import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { ErrorBody, FieldViolation } from '../errors';

export class FieldViolationDto implements FieldViolation {
  @ApiProperty({ example: 'amount' })
  field!: string;

  @ApiProperty({ example: 'isNumberString' })
  rule!: string;

  @ApiProperty({ example: 'amount must be a number string' })
  message!: string;
}

/** The error shape of every route of every service. */
@ApiExtraModels(FieldViolationDto)
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ example: 404 })
  statusCode!: number;

  @ApiProperty({ example: 'CHAIN_NOT_FOUND', description: 'Stable machine-readable code' })
  code!: string;

  @ApiProperty({ example: 'Unknown chain key: 0x1.nowhere' })
  message!: string;

  @ApiProperty({
    example: '5f0c1f9e-7f55-4a57-9a3b-1f8d6f1f2c11',
    description: 'The request id (also the x-request-id header): quote it when asking about a failure',
  })
  requestId!: string;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'array', items: { $ref: getSchemaPath(FieldViolationDto) } },
      { type: 'object', additionalProperties: true },
    ],
    description:
      'VALIDATION_FAILED: one entry per field and rule. Some other codes give an object: INTENT_NOT_OPEN { state, intentHash }, NO_LIQUIDITY { solvers, reasons }',
  })
  details?: FieldViolationDto[] | Record<string, unknown>;
}
