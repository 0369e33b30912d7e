/**
 * A Signer for a smart contract wallet on a chain route (issue 5, the playground's
 * smart-wallet signer): an erc_6492 signature whose account_id is
 * `eip155:<route chain id>:<wallet>` and whose block_number is the route's head when
 * signing (a fresh block: age 0 against the head, well inside IDENT-062's 1800 s).
 *
 * Per signature:
 *   1. the route's client, once its node has answered eth_chainId with the route's
 *      chain id (./client.ts ChainClients.ready);
 *   2. the head block: its number is the block_number (IDENT-060 judges there);
 *   3. the wallet's code at that block: none means counterfactual;
 *   4. the owner signs: an erc_191 Signer (a local key, or a browser wallet's
 *      personal_sign) or a callback of the EIP-191 hash. OwnedWallet checks the owner's
 *      ECDSA over that hash, which is exactly personal_sign of the text;
 *   5. no code: the inner signature is ERC-6492 wrapped with the deployment (factory,
 *      factoryData); a counterfactual wallet with no deployment given is an error;
 *   6. unless `verify: false`, the signature is judged by ChainVerifier at that block
 *      before it is returned, so a wrong owner fails here, not at the node.
 *
 * Errors are SignerErrors (src/signing/errors.ts): `unverifiable` when the chain cannot
 * be reached or answers another chain id (IDENT-061), `invalid_signature` when the
 * wallet does not validate the owner's signature, `signer_error` otherwise.
 */
import { hexToBytes, serializeErc6492Signature, toHex, type Hex } from 'viem'
import { ChainUnreachableError } from '../core/errors'
import type { EthAddress, WireSignature } from '../core/types'
import { SignerError, toSignerError } from '../signing/errors'
import { smartWalletSigner, type Signer } from '../signing/signers'
import { ChainClients, classifyChainError, type ChainClientOptions } from './client'
import type { Erc6492Deployment } from './owned-wallet'
import type { ChainRoute } from './routes'
import { ChainVerifier } from './verifier'

/** Signs the EIP-191 personal-message hash of `text` for the wallet (65 bytes r || s || v for OwnedWallet). */
type OwnerSignFn = (hash: Uint8Array, text: string) => Promise<Uint8Array> | Uint8Array

export interface ChainSmartWalletSignerOptions {
  /** The chain and its RPC URL: the chain id goes in account_id. */
  readonly route: ChainRoute
  /** Share the clients (and their chain id check) of a verifier; default: a client for the route alone. */
  readonly clients?: ChainClients
  readonly clientOptions?: ChainClientOptions
  /** The wallet contract. */
  readonly address: string
  /** Who signs for the wallet: an erc_191 Signer (its 65 bytes become the inner signature) or a hash callback. */
  readonly owner: Signer | OwnerSignFn
  /** How a counterfactual wallet is deployed (ERC-6492 wrapper); required to sign before deployment. */
  readonly deployment?: Erc6492Deployment
  /** Judge the signature on the chain before returning it; default true. */
  readonly verify?: boolean
}

/** What the last signature was made of: for the playground to show. */
export interface SmartWalletSigning {
  readonly accountId: string
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  readonly deployed: boolean
  readonly wrapped: boolean
  readonly innerSignature: Hex
  readonly signature: Hex
}

export interface ChainSmartWalletSigner extends Signer {
  readonly kind: 'erc_6492'
  readonly chainId: bigint
  readonly address: Hex
  /** The facts of the last signature made, or null. */
  lastSigning(): SmartWalletSigning | null
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

async function innerSignature(owner: Signer | OwnerSignFn, hash: Uint8Array, text: string): Promise<Uint8Array> {
  if (typeof owner === 'function') return owner(hash, text)
  if (owner.kind !== 'erc_191')
    throw new SignerError(
      'signer_error',
      `the owner of a smart contract wallet signs with erc_191 (personal_sign), not ${owner.kind}`,
    )
  const sig: WireSignature = await owner.sign(text)
  if (sig.kind !== 'erc_191')
    throw new SignerError('bad_response', `the owner signer returned a ${sig.kind} signature, not erc_191`)
  return sig.bytes
}

export function chainSmartWalletSigner(options: ChainSmartWalletSignerOptions): ChainSmartWalletSigner {
  const { route } = options
  if (!ADDRESS.test(options.address))
    throw new SignerError(
      'signer_error',
      `smart wallet address ${JSON.stringify(options.address)} is not 0x + 40 hex characters`,
    )
  const address = options.address.toLowerCase() as Hex
  const clients =
    options.clients ?? new ChainClients(new Map([[route.chainId, route.url]]), options.clientOptions ?? {})
  if (clients.url(route.chainId) === undefined)
    throw new SignerError('signer_error', `the clients given have no route for chain eip155:${route.chainId}`)
  const verifier = options.verify === false ? null : new ChainVerifier(clients, { cache: false })
  let last: SmartWalletSigning | null = null

  const unverifiable = (e: unknown, what: string): SignerError => {
    if (e instanceof ChainUnreachableError)
      return new SignerError('unverifiable', `IDENT-061: ${e.reason}`, { cause: e })
    const c = classifyChainError(e)
    return new SignerError(
      'unverifiable',
      `IDENT-061: could not read ${what} of chain eip155:${route.chainId} at ${route.url} (${c.kind} error): ${c.reason}`,
      { cause: e },
    )
  }

  return {
    kind: 'erc_6492',
    identifier: { kind: 'ethereum', text: address },
    chainId: route.chainId,
    address,
    lastSigning: () => last,
    async sign(text) {
      let client
      try {
        client = await clients.ready(route.chainId)
      } catch (e) {
        throw unverifiable(e, 'the chain id')
      }
      let head
      let code
      try {
        head = await client.getBlock({ blockTag: 'latest' })
        if (head.number === null)
          throw new SignerError(
            'unverifiable',
            `IDENT-061: the head block of chain eip155:${route.chainId} has no number`,
          )
        code = await client.getCode({ address, blockNumber: head.number })
      } catch (e) {
        if (e instanceof SignerError) throw e
        throw unverifiable(e, 'the head block and the wallet code')
      }
      const blockNumber = head.number
      const deployed = !!code && code !== '0x'
      if (!deployed && !options.deployment) {
        throw new SignerError(
          'signer_error',
          `smart wallet ${address} has no code on chain eip155:${route.chainId} at block ${blockNumber}, and no ERC-6492 deployment (factory, factoryData) was given to sign for it before deployment`,
        )
      }
      let inner: Uint8Array = new Uint8Array(0)
      let signature: Uint8Array = new Uint8Array(0)
      let signedHash: Uint8Array = new Uint8Array(0)
      const wire = await smartWalletSigner({
        chainId: route.chainId,
        address,
        blockNumber,
        signature: async (hash) => {
          signedHash = hash
          try {
            inner = await innerSignature(options.owner, hash, text)
          } catch (e) {
            throw toSignerError(e)
          }
          signature = deployed
            ? inner
            : hexToBytes(
                serializeErc6492Signature({
                  address: options.deployment!.factory,
                  data: options.deployment!.factoryData,
                  signature: toHex(inner),
                }),
              )
          return signature
        },
      }).sign(text)
      if (wire.kind !== 'erc_6492')
        throw new SignerError('bad_response', `expected an erc_6492 signature, got ${wire.kind}`)
      if (verifier) {
        let verdict: 'valid' | 'invalid'
        try {
          verdict = await verifier.verify({
            chainId: route.chainId,
            account: address as string as EthAddress,
            blockNumber,
            hash: signedHash,
            signature,
          })
        } catch (e) {
          throw unverifiable(e, 'the verdict')
        }
        if (verdict !== 'valid') {
          throw new SignerError(
            'invalid_signature',
            `IDENT-060: smart wallet ${address} does not validate the owner's signature at block ${blockNumber} of chain eip155:${route.chainId}${deployed ? '' : ' (counterfactual, through the ERC-6492 factory)'}: is the signing key the wallet's owner?`,
          )
        }
      }
      last = {
        accountId: wire.accountId,
        blockNumber,
        blockTimestamp: head.timestamp,
        deployed,
        wrapped: !deployed,
        innerSignature: toHex(inner),
        signature: toHex(signature),
      }
      return wire
    },
  }
}
