import { IsString, MaxLength, MinLength } from 'class-validator';
import type { RpcRequest, Subjects } from '@swap/contracts';

export class ChainKeyRequest implements RpcRequest<typeof Subjects.tokensByChain> {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  chainKey!: string;
}
