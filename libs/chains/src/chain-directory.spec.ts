import { AppError } from '@swap/contracts';
import { ChainDirectory, chainKeyFor, validateProfile, type ChainProfile } from './chain-directory';
import { loadChainDirectory } from './profiles';

const tiny: ChainProfile = {
  name: 'tiny',
  chains: [
    {
      key: '0x92.sonic',
      name: 'Sonic',
      type: 'EVM',
      chainId: 146,
      relayChainId: '146',
      hub: true,
      assetManager: null,
      connection: null,
      aliases: ['sonic'],
    },
    {
      key: 'solana',
      name: 'Solana',
      type: 'SOLANA',
      chainId: 'solana',
      relayChainId: '1',
      hub: false,
      assetManager: 'A',
      connection: 'C',
      aliases: [],
    },
  ],
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      chainKey: '0x92.sonic',
      hubAsset: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      vault: '0x0',
    },
    {
      symbol: 'SOL',
      name: 'Solana',
      decimals: 9,
      address: '11111111111111111111111111111111',
      chainKey: 'solana',
      hubAsset: '0x1',
      vault: '0x2',
    },
  ],
};

describe('chainKeyFor', () => {
  it('keys EVM networks <hex_chain_id>.<name> and others by plain name', () => {
    expect(chainKeyFor('EVM', 146, 'sonic')).toBe('0x92.sonic');
    expect(chainKeyFor('EVM', 42161, '0xa4b1.arbitrum')).toBe('0xa4b1.arbitrum');
    expect(chainKeyFor('SOLANA', 'solana', 'solana')).toBe('solana');
  });
});

describe('ChainDirectory', () => {
  const directory = new ChainDirectory(tiny);

  it('groups tokens by canonical chain key, exposing only the public Token fields (with hubAsset and vault, as the public client reads them)', () => {
    expect(directory.tokensByChain()).toEqual({
      '0x92.sonic': [
        {
          symbol: 'USDC',
          name: 'USD Coin',
          decimals: 6,
          address: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
          chainKey: '0x92.sonic',
          hubAsset: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
          vault: '0x0',
        },
      ],
      solana: [
        {
          symbol: 'SOL',
          name: 'Solana',
          decimals: 9,
          address: '11111111111111111111111111111111',
          chainKey: 'solana',
          hubAsset: '0x1',
          vault: '0x2',
        },
      ],
    });
  });

  it('accepts an alias and answers with the canonical key', () => {
    expect(directory.tokensOf('sonic')[0].chainKey).toBe('0x92.sonic');
  });

  it('reads keys and aliases in any letter case', () => {
    expect(directory.getChain('0X92.SONIC').key).toBe('0x92.sonic');
    expect(directory.getChain('Sonic').key).toBe('0x92.sonic');
    expect(directory.findChain('SOLANA')?.key).toBe('solana');
  });

  it('rejects an unknown chain key with a 404 that names it', () => {
    let error: AppError | undefined;
    try {
      directory.tokensOf('0x1.nowhere');
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.getStatus()).toBe(404);
    expect(error?.code).toBe('CHAIN_NOT_FOUND');
    expect(error?.message).toBe('Unknown chain key: 0x1.nowhere');
  });

  it('finds EVM tokens by address in any case, other networks exactly', () => {
    expect(directory.findToken('0x92.sonic', '0x29219DD400F2BF60E5A23D13BE72B486D4038894')?.symbol).toBe('USDC');
    expect(directory.findToken('solana', '11111111111111111111111111111111')?.symbol).toBe('SOL');
  });
});

describe('validateProfile', () => {
  it('lists every problem of a bad profile', () => {
    const bad: ChainProfile = {
      name: 'bad',
      chains: [{ ...tiny.chains[0], key: 'sonic', hub: false }],
      tokens: [
        { ...tiny.tokens[0], chainKey: 'ghost' },
        { ...tiny.tokens[0], chainKey: 'sonic', address: 'not-an-address' },
      ],
      leverageVaults: [
        {
          name: 'lsodaX',
          vault: '0x1',
          asset: '0x0000000000000000000000000000000000000001',
          borrowToken: '0x0000000000000000000000000000000000000002',
        },
        {
          name: 'LSODAX',
          vault: '0x0000000000000000000000000000000000000003',
          asset: '0x0000000000000000000000000000000000000001',
          borrowToken: '0x0000000000000000000000000000000000000002',
          lsdSource: { poolId: 'p', fallbackAprPct: Number.NaN, label: 'x' },
        },
      ],
    };
    const problems = validateProfile(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        'expected exactly one hub chain, found 0',
        'EVM chain sonic must be keyed <hex_chain_id>.<network_name>',
        'token USDC names unknown chain ghost',
        'token USDC on sonic has an invalid address not-an-address',
        'leveraged-yield vault lsodaX has an invalid vault 0x1',
        'leveraged-yield vault name "LSODAX" is empty or used twice',
        'leveraged-yield vault LSODAX has an invalid lsdSource (poolId, fallbackAprPct, label)',
      ]),
    );
  });
});

describe('the mainnet profile', () => {
  const mainnet = loadChainDirectory('mainnet');

  it('is valid, with the hub keyed 0x92.sonic', () => {
    expect(validateProfile(mainnet.profile)).toEqual([]);
    expect(mainnet.hub.key).toBe('0x92.sonic');
    expect(mainnet.hub.chainId).toBe(146);
  });

  it('carries the hub contracts of protocol-facts.md and every token’s hub-asset decimals', () => {
    expect(mainnet.hub.contracts).toMatchObject({
      intents: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef',
      hubWalletFactory: '0xA0ed3047D358648F2C0583B415CffCA571FDB544',
    });
    expect(mainnet.profile.tokens.filter((t) => t.hubDecimals === undefined)).toEqual([]);
  });

  it('carries the public leveraged-yield vault of public-api-families.md §1.4', () => {
    expect(mainnet.leverageVaults).toEqual([
      {
        name: 'lsodaWEETH',
        vault: '0xD09de2f5070699A909c0FD32fb5A909d3886701D',
        asset: '0xCb6B152D3a943f25157381aFcA7fEFCD2ef5a357',
        borrowToken: '0x4effB5813271699683C25c734F4daBc45B363709',
      },
    ]);
    // Its borrowed token is sodaETH, the hub vault token of ETH.
    expect(mainnet.profile.tokens.some((t) => t.vault === mainnet.leverageVaults[0].borrowToken)).toBe(true);
  });

  it('keys every EVM chain by its hex chain id and keeps the public names as aliases', () => {
    for (const chain of mainnet.chains.filter((c) => c.type === 'EVM')) {
      expect(chain.key.split('.')[0]).toBe(`0x${(chain.chainId as number).toString(16)}`);
    }
    expect(mainnet.findChain('ethereum')?.key).toBe('0x1.ethereum');
    expect(mainnet.tokensOf('0xa4b1.arbitrum').map((t) => t.symbol)).toContain('USDC');
  });
});

describe('loadChainDirectory', () => {
  it('explains an unreadable profile file', () => {
    expect(() => loadChainDirectory('/nonexistent/profile.json')).toThrow(/Cannot read chain profile \/nonexistent\/profile.json/);
  });
});
