import type { Account, Address, Chain, PublicClient, WalletClient } from 'viem';
import type { Artifact } from './compile';

/** Each write awaited to its receipt; a revert throws, naming the function and the chain. */
export function contractWriter(client: PublicClient, wallet: WalletClient, account: Account, chain: Chain) {
  return {
    async deploy(artifact: Artifact, args: unknown[]): Promise<Address> {
      const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account, chain });
      return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
    },
    async call(artifact: Artifact, address: Address, functionName: string, args: unknown[]): Promise<void> {
      const hash = await wallet.writeContract({ address, abi: artifact.abi, functionName, args, account, chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`${functionName} on ${address} (${chain.name}) reverted`);
    },
  };
}
