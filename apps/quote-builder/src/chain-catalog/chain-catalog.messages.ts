import { IsString, MinLength } from 'class-validator';
import type { RpcRequest, Subjects } from '@swap/contracts';

export class ChainKeyMessage implements RpcRequest<typeof Subjects.tokensByChain> {
  @IsString()
  @MinLength(1)
  chainKey!: string;
}
