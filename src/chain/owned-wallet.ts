/**
 * The demo smart contract wallet of this project (contracts/OwnedWallet.sol and its
 * CREATE2 WalletFactory.sol), as much as a signer needs: the factory's ABI (human
 * readable, so no compiled artifact is bundled), the counterfactual address read from
 * the factory's own `addressOf`, and the ERC-6492 deployment (factory + `deploy`
 * calldata) that wraps a signature of a wallet that has no code yet.
 *
 * OwnedWallet.isValidSignature(hash, sig) accepts a 65-byte r || s || v ECDSA signature
 * by its current owner over the hash exactly as given; the validator passes the EIP-191
 * personal-message hash of the signature text, so the owner's `personal_sign` of the
 * text is the inner signature.
 */
import { encodeFunctionData, parseAbi, toHex, type Hex, type PublicClient } from 'viem'

export const walletFactoryAbi = parseAbi([
  'function deploy(address owner, bytes32 salt) returns (address wallet)',
  'function addressOf(address owner, bytes32 salt) view returns (address)',
])

/** The ERC-6492 deployment of a counterfactual wallet: the validator calls `factory` with `factoryData`. */
export interface Erc6492Deployment {
  readonly factory: Hex
  readonly factoryData: Hex
}

export interface OwnedWalletPlan extends Erc6492Deployment {
  /** The wallet's CREATE2 address (lowercase). */
  readonly address: Hex
  readonly owner: Hex
  readonly salt: Hex
}

/** A salt as the factory takes it: a number as a 32-byte word, or 32 bytes of hex as given. */
function walletSalt(salt: number | bigint | Hex): Hex {
  if (typeof salt === 'string') {
    if (!/^0x[0-9a-fA-F]{64}$/.test(salt)) throw new Error(`salt ${JSON.stringify(salt)} is not 0x + 64 hex characters`)
    return salt.toLowerCase() as Hex
  }
  return toHex(salt, { size: 32 })
}

/** The `deploy(owner, salt)` calldata: the ERC-6492 factoryData of the wallet. */
function deployCalldata(owner: Hex, salt: Hex): Hex {
  return encodeFunctionData({ abi: walletFactoryAbi, functionName: 'deploy', args: [owner, salt] })
}

/**
 * The wallet `factory` would deploy for `owner` under `salt`: its address (the factory's
 * own addressOf, at the latest block) and the ERC-6492 deployment. Throws the viem error
 * when the factory cannot be read.
 */
export async function ownedWalletPlan(
  client: PublicClient,
  factory: Hex,
  owner: Hex,
  salt: number | bigint | Hex,
): Promise<OwnedWalletPlan> {
  const s = walletSalt(salt)
  const address = await client.readContract({
    address: factory,
    abi: walletFactoryAbi,
    functionName: 'addressOf',
    args: [owner, s],
  })
  return {
    address: address.toLowerCase() as Hex,
    owner: owner.toLowerCase() as Hex,
    salt: s,
    factory: factory.toLowerCase() as Hex,
    factoryData: deployCalldata(owner, s),
  }
}
