import type { Account, Address, Chain, PublicClient, WalletClient } from 'viem';
import type { Artifact } from './compile';

/**
 * Deploys and calls the devnet's contracts from one account on one chain, each write
 * awaited to its receipt; a call that reverts throws, naming the function and the chain.
 * (The devnet and the mainnet stand-in set their contracts up with it.)
 */
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
