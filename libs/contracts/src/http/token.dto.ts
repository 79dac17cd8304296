import { ApiProperty } from '@nestjs/swagger';
import type { Token } from '../domain/token';

export class TokenDto implements Token {
  @ApiProperty({ example: 'USDC' })
  symbol!: string;

  @ApiProperty({ example: 'USD Coin' })
  name!: string;

  @ApiProperty({ example: 6 })
  decimals!: number;

  @ApiProperty({ example: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', description: 'Token address on its network' })
  address!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'EVM: <hex_chain_id>.<network_name>; other networks: a plain name' })
  chainKey!: string;

  @ApiProperty({
    example: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    description: 'The token’s asset on the hub; intents carry hub assets',
  })
  hubAsset!: string;

  @ApiProperty({ example: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', description: 'The hub vault holding the hub asset' })
  vault!: string;
}
