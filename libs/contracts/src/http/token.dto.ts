import { ApiProperty } from '@nestjs/swagger';
import type { ChainMapEntry, HubAsset, Token } from '../domain/token';

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

export class HubAssetDto implements HubAsset {
  @ApiProperty({ example: '0x4effB5813271699683C25c734F4daBc45B363709', description: 'The hub asset’s address' })
  asset!: string;

  @ApiProperty({ example: 6, description: 'The hub asset’s decimals' })
  decimal!: number;

  @ApiProperty({ example: '0xAbbb91c0617090F0028BDC27597Cd0D038F3A833', description: 'The hub vault holding it' })
  vault!: string;

  @ApiProperty({ example: 'USDC' })
  symbol!: string;

  @ApiProperty({ example: 'USD Coin' })
  name!: string;
}

export class ChainMapEntryDto implements ChainMapEntry {
  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'The chain key: what every route of this API takes' })
  key!: string;

  @ApiProperty({ example: 'Arbitrum' })
  name!: string;

  @ApiProperty({ example: 'EVM', enum: ['EVM', 'SOLANA', 'SUI', 'STELLAR', 'INJECTIVE', 'ICON', 'NEAR'] })
  type!: string;

  @ApiProperty({ type: Number, nullable: true, example: 42161, description: 'The EVM chain id a wallet signs for; null off EVM' })
  evmChainId!: number | null;

  @ApiProperty({ example: 23, description: 'What an intent carries in srcChain/dstChain, and the relay routes take as chainId' })
  relayChainId!: number;

  @ApiProperty({ example: false, description: 'True for the hub, where intents live' })
  hub!: boolean;

  @ApiProperty({ type: [String], example: ['arbitrum'], description: 'Other names accepted on input, in any letter case' })
  aliases!: string[];
}
