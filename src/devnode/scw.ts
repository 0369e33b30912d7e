/**
 * The identity service's VerifySmartContractWalletSignatures: the verifier RPC a client
 * may use in place of its own chain access (spec section 7), judged with the node's
 * `--chain` routes by the same SmartWalletVerifier as admission (src/chain/verifier.ts).
 *
 * Per signature, in order:
 *   IDENT-060  the account_id's form, before any chain access (a malformed one is not
 *              valid, with the reason); a hash that is not 32 bytes is not valid either;
 *              then ERC-6492 universal validation at block_number (the chain's head block
 *              when it is absent)
 *   IDENT-062  a stated block above the head, or older than 1800 s, is not valid
 *   IDENT-061  when a signature cannot be judged (no route, the chain call failed), the
 *              whole call answers UNAVAILABLE naming IDENT-061: never "not valid"
 */
import { create, toBinary } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { ChainUnreachableError } from '../core/errors'
import { parseEip155AccountId } from '../core/verify/signature'
import type { SmartWalletVerifier } from '../core/verify/port'
import {
  VerifySmartContractWalletSignaturesRequestSchema,
  VerifySmartContractWalletSignaturesResponseSchema,
} from '../gen/identity/api/v1/identity_pb'
import type { FreshnessCheck } from './admission'
import { decodeRequest } from './codec'
import { subject, type CallNote } from './traffic'

/** At most this many signatures per call. */
const MAX_SIGNATURES = 100

/** The chain's head block number. @throws ChainUnreachableError */
export type HeadBlock = (chainId: bigint) => Promise<bigint>

export interface ScwDeps {
  readonly smartWallets?: SmartWalletVerifier
  readonly freshness: FreshnessCheck
  readonly headBlock?: HeadBlock
}

interface Verdict {
  isValid: boolean
  blockNumber?: bigint
  error?: string
}

const unreachable = (chainId: bigint, reason: string): ChainUnreachableError =>
  new ChainUnreachableError(chainId, reason)

export async function verifySmartContractWalletSignatures(
  deps: ScwDeps,
  body: Uint8Array,
  note: CallNote,
): Promise<Uint8Array> {
  const req = decodeRequest(VerifySmartContractWalletSignaturesRequestSchema, 'binary', body)
  if (req.signatures.length > MAX_SIGNATURES) {
    throw new ConnectError(
      `${req.signatures.length} signatures asked; at most ${MAX_SIGNATURES} per call`,
      Code.InvalidArgument,
    )
  }
  if (req.signatures[0]) note.subject = subject('identifier', req.signatures[0].accountId)
  const responses: Verdict[] = []
  try {
    for (const sig of req.signatures) {
      const account = parseEip155AccountId(sig.accountId)
      if (typeof account === 'string') {
        responses.push({ isValid: false, error: `IDENT-060: ${account}` })
        continue
      }
      if (sig.hash.length !== 32) {
        responses.push({ isValid: false, error: `IDENT-060: the hash is ${sig.hash.length} bytes, not 32` })
        continue
      }
      const { chainId } = account
      let blockNumber: bigint
      if (sig.blockNumber === undefined) {
        if (!deps.headBlock) throw unreachable(chainId, `no RPC route for chain eip155:${chainId}`)
        blockNumber = await deps.headBlock(chainId)
      } else {
        blockNumber = sig.blockNumber
        const fresh = await deps.freshness.check({ chainId, blockNumber })
        if (!fresh.fresh) {
          responses.push({ isValid: false, blockNumber, error: `IDENT-062: ${fresh.reason}` })
          continue
        }
      }
      if (!deps.smartWallets) throw unreachable(chainId, `no RPC route for chain eip155:${chainId}`)
      const verdict = await deps.smartWallets.verify({
        chainId,
        account: account.address,
        blockNumber,
        hash: sig.hash,
        signature: sig.signature,
      })
      responses.push(
        verdict === 'valid'
          ? { isValid: true, blockNumber }
          : {
              isValid: false,
              blockNumber,
              error: `IDENT-060: the ERC-6492 validation of ${account.address} at block ${blockNumber} is not valid`,
            },
      )
    }
  } catch (e) {
    if (e instanceof ChainUnreachableError) {
      note.rule = 'IDENT-061'
      throw new ConnectError(
        `IDENT-061: a smart contract wallet signature cannot be judged now, retry later: ${e.message}`,
        Code.Unavailable,
      )
    }
    throw e
  }
  return toBinary(
    VerifySmartContractWalletSignaturesResponseSchema,
    create(VerifySmartContractWalletSignaturesResponseSchema, { responses }),
  )
}
