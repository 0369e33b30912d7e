/**
 * `npm run fixtures`: writes the fixture corpus of test/fixtures/ (design.md, Tests).
 *
 * Every fixture is a log bundle `<name>.json` (contract format 1) with its expected report
 * `<name>.expected.json`, and a few are also written as a binary GetIdentityUpdatesResponse
 * (`<name>.pb`) and its gateway JSON (`<name>.gateway.json`). `index.json` lists them all,
 * one line of description each, for the test and the inspector's gallery.
 *
 * The expected reports are DECLARED here from the spec, by the author of each fixture who
 * knows what was built: which update applies, which rule the failing one breaks and at
 * which action, and the association state after the last applied update. Nothing here
 * runs the validator (that would make the fixture test circular). The only computed part
 * of an expectation is bookkeeping: the number of distinct replay keys of the applied
 * updates, from the canonical form of spec section 4 (src/signing/replay-key.ts).
 *
 * Deterministic: fixed keys (SHA-256 of a label), fixed timestamps, deterministic
 * signatures (RFC 6979 ECDSA, RFC 8032 Ed25519); running it twice writes identical bytes.
 *
 * Fixture names start with the rule they exercise; a rejected update sits in the middle
 * of its log so that a later update shows `not_applied`.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fromBinary, toBinary } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { IdentityUpdateSchema } from '../src/gen/identity/associations/association_pb'
import {
  encodeBundleJson,
  encodeGetIdentityUpdatesResponse,
  encodeUpdate,
  toGatewayJson,
} from '../src/core/encode/update'
import { deriveInboxId } from '../src/core/inbox-id'
import { IdentifierKindValue, type MemberId, type WireMemberIdentifier, type WireSignature } from '../src/core/types'
import { bytesToHex, hexToBytes, sha256, utf8 } from '../src/crypto'
import {
  addMember,
  changeRecovery,
  checksumAddress,
  claimHandle,
  createInbox,
  draftUpdate,
  ethKeySigner,
  installationKeySigner,
  malleateErc191,
  passkeySigner,
  revokeMember,
  signDraft,
  smartWalletSigner,
  type DraftAction,
  type Signer,
  type SignedUpdate,
} from '../src/signing'
import { FAKE_VERIFIER_DESCRIPTION, fakeSmartWalletSignature } from '../test/fixtures/fake-smart-wallet'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'test', 'fixtures')

// ---------------------------------------------------------------------------------------
// Fixed keys, parties and times

const secret = (label: string): Uint8Array => sha256(utf8(`fixture-key-${label}`))

const W1 = ethKeySigner(secret('wallet-1'))
const W2 = ethKeySigner(secret('wallet-2'))
const W3 = ethKeySigner(secret('wallet-3'))
const W4 = ethKeySigner(secret('wallet-4'))
const I1 = installationKeySigner(secret('installation-1'))
const I2 = installationKeySigner(secret('installation-2'))
const I3 = installationKeySigner(secret('installation-3'))
const I4 = installationKeySigner(secret('installation-4'))
const ORIGIN = 'https://inbox.example'
const P1 = passkeySigner(secret('passkey-1'), { origin: ORIGIN })
/** The same passkey (same key, same member) emitting high-s signatures. */
const P1_HIGH_S = passkeySigner(secret('passkey-1'), { origin: ORIGIN, highS: true })
/** The same passkey again, asserted from another origin (a different signature, the same member). */
const P1_OTHER_ORIGIN = passkeySigner(secret('passkey-1'), { origin: 'https://other.example' })

const scAddress = (label: string): string =>
  `0x${bytesToHex(sha256(utf8(`fixture-smart-wallet-${label}`)).subarray(0, 20))}`
const SC1_ADDRESS = scAddress('1')
const SC2_ADDRESS = scAddress('2')
const BLOCK = 19_000_000n

/** A smart contract wallet that the fake verifier accepts (test/fixtures/fake-smart-wallet.ts). */
function smartWallet(chainId: bigint, address: string): Signer {
  return smartWalletSigner({
    chainId,
    address,
    blockNumber: BLOCK,
    signature: (hash) => fakeSmartWalletSignature(hash, address),
  })
}

/** 2024-04-10T12:00:00Z plus n minutes. */
const T0 = 1712750400000000000n
const T = (n: number): bigint => T0 + BigInt(n) * 60_000_000_000n
const SECOND = 1_000_000_000n

const ETH = IdentifierKindValue.ETHEREUM

// ---------------------------------------------------------------------------------------
// Expected reports

type Status = 'applied' | 'rejected' | 'pending' | 'not_applied'

interface ExpectedUpdate {
  sequence_id: string
  status: Status
  rule: string | null
  action_index: number | null
}

interface ExpectedMember {
  kind: MemberId['kind']
  identifier: string
  adder: string | null
  client_timestamp_ns: string
  chain_id: string | null
}

type Party = Signer | MemberId

const idOf = (p: Party): MemberId => ('sign' in p ? p.identifier : p)

/** A member as the spec says the state records it (IDENT-012, IDENT-042). */
function member(who: Party, adder: Party | null, ts: bigint, chainId: bigint | null = null): ExpectedMember {
  const id = idOf(who)
  return {
    kind: id.kind,
    identifier: id.text,
    adder: adder === null ? null : idOf(adder).text,
    client_timestamp_ns: ts.toString(),
    chain_id: chainId === null ? null : chainId.toString(),
  }
}

interface DeclaredState {
  members: ExpectedMember[]
  recovery: Party
  recoveryChainId?: bigint | null
  handles?: string[]
  claimCount?: number
}

type Verifier = 'none' | 'fake'

interface Entry {
  sequenceId: bigint
  /** The update bytes, or the raw text of `update_hex` for an entry that is not valid hex. */
  bytes?: Uint8Array
  hexText?: string
  /** The signatures it carries (for the seen-key count when it applies). */
  signed?: SignedUpdate
  status: Status
  rule: string | null
  actionIndex: number | null
}

interface FixtureMeta {
  readonly rules: readonly string[]
  readonly description: string
  readonly verifier?: Verifier
  /** Also write the .pb and .gateway.json forms. */
  readonly allFormats?: boolean
  /** Bundle encoding of the updates. */
  readonly encoding?: 'hex' | 'base64'
}

type UpdateInput =
  | { readonly ts: bigint; readonly actions: readonly DraftAction[]; readonly inboxId?: string }
  | { readonly signed: SignedUpdate; readonly bytes?: Uint8Array }
  | { readonly bytes: Uint8Array }
  | { readonly hexText: string }

class Fixture {
  readonly entries: Entry[] = []
  private nextSeq = 1n
  private declared: DeclaredState | null = null
  /** File order of the entries, when not ascending (IDENT-004). */
  fileOrder: bigint[] | null = null

  constructor(
    readonly name: string,
    readonly inboxId: string,
    readonly meta: FixtureMeta,
  ) {}

  private async add(
    input: UpdateInput,
    status: Status,
    rule: string | null,
    actionIndex: number | null,
    seq?: bigint,
  ): Promise<SignedUpdate | undefined> {
    const sequenceId = seq ?? this.nextSeq
    this.nextSeq = sequenceId + 1n
    let signed: SignedUpdate | undefined
    let bytes: Uint8Array | undefined
    let hexText: string | undefined
    if ('actions' in input) {
      signed = await signDraft(
        draftUpdate({ inboxId: input.inboxId ?? this.inboxId, clientTimestampNs: input.ts, actions: input.actions }),
      )
      bytes = signed.bytes
    } else if ('signed' in input) {
      signed = input.signed
      bytes = input.bytes ?? input.signed.bytes
    } else if ('bytes' in input) bytes = input.bytes
    else hexText = input.hexText
    const e: Entry = { sequenceId, status, rule, actionIndex }
    if (bytes) e.bytes = bytes
    if (hexText !== undefined) e.hexText = hexText
    if (signed) e.signed = signed
    this.entries.push(e)
    return signed
  }

  async applied(input: UpdateInput, seq?: bigint): Promise<SignedUpdate> {
    const s = await this.add(input, 'applied', null, null, seq)
    if (!s) throw new Error(`${this.name}: an applied update needs its signatures`)
    return s
  }
  async rejected(rule: string, actionIndex: number | null, input: UpdateInput): Promise<void> {
    await this.add(input, 'rejected', rule, actionIndex)
  }
  /** IDENT-061: a smart wallet signature (in action `actionIndex`) could not be judged. */
  async pending(actionIndex: number, input: UpdateInput): Promise<void> {
    await this.add(input, 'pending', 'IDENT-061', actionIndex)
  }
  async notApplied(input: UpdateInput): Promise<void> {
    await this.add(input, 'not_applied', null, null)
  }

  /** The state after the last applied update, as the spec says it must be. */
  state(s: DeclaredState): void {
    this.declared = s
  }

  expected(): unknown {
    const sorted = [...this.entries].sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : 1))
    // Consistency of the declaration: once an update is rejected or pending, the rest is not_applied.
    let stopped = false
    for (const e of sorted) {
      if (stopped && e.status !== 'not_applied')
        throw new Error(`${this.name}: seq ${e.sequenceId} after a stop must be not_applied`)
      if (!stopped && e.status === 'not_applied')
        throw new Error(`${this.name}: seq ${e.sequenceId} is not_applied with nothing before it stopping the log`)
      if (e.status === 'rejected' || e.status === 'pending') stopped = true
    }
    const applied = sorted.filter((e) => e.status === 'applied')
    const last = applied.at(-1)
    if ((last === undefined) !== (this.declared === null)) {
      throw new Error(`${this.name}: declare the state exactly when some update applies`)
    }
    let state: unknown = null
    let handles: { current: string | null; others: string[] } = { current: null, others: [] }
    if (last && this.declared) {
      const d = this.declared
      const seen = new Set<string>()
      for (const e of applied) {
        for (const s of e.signed!.signatures) {
          if (s.replayKey === null) throw new Error(`${this.name}: an applied signature has no replay key`)
          seen.add(s.replayKey)
        }
      }
      const members = [...d.members].sort((a, b) => cmp(a.kind, b.kind) || cmp(a.identifier, b.identifier))
      const keys = new Set(members.map((m) => `${m.kind}:${m.identifier}`))
      if (keys.size !== members.length) throw new Error(`${this.name}: a member is declared twice`)
      const rec = idOf(d.recovery)
      const hs = d.handles ?? []
      state = {
        inbox_id: this.inboxId,
        sequence_id: last.sequenceId.toString(),
        members,
        recovery: {
          kind: rec.kind,
          identifier: rec.text,
          chain_id: d.recoveryChainId == null ? null : d.recoveryChainId.toString(),
        },
        handles: hs,
        claim_count: d.claimCount ?? hs.length,
        seen_replay_keys_count: seen.size,
      }
      // IDENT-086: the display handle (the last) first, then the others newest first.
      handles = { current: hs.at(-1) ?? null, others: hs.slice(0, -1).reverse() }
    }
    return {
      name: this.name,
      verifier: this.meta.verifier ?? 'none',
      inbox_id: this.inboxId,
      ok: sorted.every((e) => e.status === 'applied'),
      updates: sorted.map(
        (e): ExpectedUpdate => ({
          sequence_id: e.sequenceId.toString(),
          status: e.status,
          rule: e.rule,
          action_index: e.actionIndex,
        }),
      ),
      state,
      handles,
    }
  }

  /** Entries in file order. */
  fileEntries(): Entry[] {
    if (!this.fileOrder) return [...this.entries].sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : 1))
    return this.fileOrder.map((s) => this.entries.find((e) => e.sequenceId === s)!)
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// ---------------------------------------------------------------------------------------
// Helpers for crafted signatures and bytes

function indexOfAll(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = []
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    out.push(i)
  }
  return out
}

/**
 * IDENT-001, by hand: rewrites the one Signature whose erc_191 bytes are `sig` into a
 * Signature holding only field 4 (the retired legacy delegated signature) with the same
 * payload. `0a 43 | 0a 41 <65 bytes>` (Signature.erc_191, 67 bytes) becomes
 * `22 43 | 0a 41 <65 bytes>` (field 4, length-delimited, same length), so no enclosing
 * length changes.
 */
function retireToField4(bytes: Uint8Array, sig: Uint8Array): Uint8Array {
  const at = indexOfAll(bytes, sig)
  if (at.length !== 1) throw new Error(`retireToField4: the signature occurs ${at.length} times`)
  const p = at[0]!
  if (bytes[p - 4] !== 0x0a || bytes[p - 3] !== 0x43 || bytes[p - 2] !== 0x0a || bytes[p - 1] !== 0x41) {
    throw new Error('retireToField4: not framed as Signature.erc_191 { bytes }')
  }
  const out = new Uint8Array(bytes)
  out[p - 4] = (4 << 3) | 2 // field 4, wire type 2
  return out
}

/**
 * Adds field 4 (with a legacy-looking payload: a message whose field 1 is `payload`)
 * beside the listed signature of `new_member_signature` of action `actionIndex`, an add.
 * The spec: field 4 beside a listed field is an unknown field, ignored.
 */
function addField4Beside(bytes: Uint8Array, actionIndex: number, payload: Uint8Array): Uint8Array {
  const msg = fromBinary(IdentityUpdateSchema, bytes)
  const action = msg.actions[actionIndex]!
  if (action.kind.case !== 'add' || !action.kind.value.newMemberSignature)
    throw new Error('addField4Beside: not an add')
  const inner = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(payload).finish()
  const data = new BinaryWriter().bytes(inner).finish() // length-prefixed, as protobuf-es keeps unknown fields
  action.kind.value.newMemberSignature.$unknown = [{ no: 4, wireType: WireType.LengthDelimited, data }]
  return toBinary(IdentityUpdateSchema, msg)
}

/** secp256k1 field prime. */
const SECP_P = (1n << 256n) - (1n << 32n) - 977n

function modPow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n
  b %= m
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m
    b = (b * b) % m
    e >>= 1n
  }
  return r
}

/** The smallest x >= 1 for which x^3 + 7 is not a square mod p: no curve point has it as x (Euler's criterion). */
function xWithNoCurvePoint(): bigint {
  for (let x = 1n; ; x++) {
    const rhs = (x * x * x + 7n) % SECP_P
    if (modPow(rhs, (SECP_P - 1n) / 2n, SECP_P) === SECP_P - 1n) return x
  }
}

function be32(n: bigint): Uint8Array {
  return hexToBytes(n.toString(16).padStart(64, '0'))
}

const erc191 = (s: WireSignature): Uint8Array => {
  if (s.kind !== 'erc_191') throw new Error(`expected erc_191, got ${s.kind}`)
  return s.bytes
}

/** The signature of one role of one action of a signed update. */
function sigOf(u: SignedUpdate, actionIndex: number, role: string): WireSignature {
  const s = u.signatures.find((x) => x.actionIndex === actionIndex && x.role === role)
  if (!s) throw new Error(`no ${role} in action ${actionIndex}`)
  return s.signature
}

/** Re-encodes an update with some signatures replaced (same text: signatures are not in it). */
function withSignatures(
  u: SignedUpdate,
  replace: (sig: WireSignature, actionIndex: number, role: string) => WireSignature,
): SignedUpdate {
  const signatures = u.signatures.map((s) => ({ ...s, signature: replace(s.signature, s.actionIndex, s.role) }))
  const get = (i: number, role: string): WireSignature =>
    signatures.find((s) => s.actionIndex === i && s.role === role)!.signature
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every kind (tsc checks it)
  const actions = u.update.actions.map((a, i) => {
    switch (a.kind) {
      case 'add':
        return {
          ...a,
          existingMemberSignature: get(i, 'existing_member_signature'),
          newMemberSignature: get(i, 'new_member_signature'),
        }
      case 'create_inbox':
        return { ...a, initialIdentifierSignature: get(i, 'initial_identifier_signature') }
      case 'revoke':
        return { ...a, recoveryIdentifierSignature: get(i, 'recovery_identifier_signature') }
      case 'change_recovery_address':
        return { ...a, existingRecoveryIdentifierSignature: get(i, 'existing_recovery_identifier_signature') }
      case 'claim_handle':
        return { ...a, signature: get(i, 'signature') }
    }
  })
  const update = { ...u.update, actions }
  return { ...u, update, bytes: encodeUpdate(update), signatures }
}

const ethId = (address: string): WireMemberIdentifier => ({ kind: 'ethereum', address })

/** The first update of most fixtures: W1 opens the inbox and registers installation I1 (the usual client flow). */
const openWithInstallation = (ts = T(1)): UpdateInput => ({ ts, actions: [createInbox(W1), addMember(W1, I1)] })

/** The state after openWithInstallation: W1 (creator, recovery) and I1 added by W1. */
const openedMembers = (ts = T(1)): ExpectedMember[] => [member(W1, null, ts), member(I1, W1, ts)]

// ---------------------------------------------------------------------------------------
// The corpus

type Build = (f: Fixture) => Promise<void>
const corpus: { name: string; inboxId: string; meta: FixtureMeta; build: Build }[] = []
const fixture = (
  name: string,
  meta: FixtureMeta,
  build: Build,
  inboxId = deriveInboxId(W1.identifier.text, 0n),
): void => {
  corpus.push({ name, inboxId, meta, build })
}
const INBOX = deriveInboxId(W1.identifier.text, 0n)

// ---- valid logs -------------------------------------------------------------------------

fixture(
  'valid-full-life',
  {
    rules: [
      'IDENT-012',
      'IDENT-042',
      'IDENT-044',
      'IDENT-045',
      'IDENT-046',
      'IDENT-050',
      'IDENT-081',
      'IDENT-082',
      'IDENT-083',
      'IDENT-086',
    ],
    description:
      'A whole inbox life, every update applies: create + installation in one update (one wallet signature for both), passkey, second wallet, an installation-signed wallet add, claims nick / nick#2341 / nick again (moves to the end), recovery to the second wallet, the new recovery revokes the first wallet (cascade removes its installation), the recovery revokes itself as member (keeps the role) and still adds an installation.',
    allFormats: true,
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, P1)] })
    await f.applied({ ts: T(3), actions: [addMember(W1, W2)] })
    await f.applied({ ts: T(4), actions: [addMember(I1, W3)] }) // installation → Ethereum: a permitted pair
    await f.applied({ ts: T(5), actions: [claimHandle('nick', W1)] })
    await f.applied({ ts: T(6), actions: [claimHandle('nick#2341', I1)] }) // an installation signs a claim
    await f.applied({ ts: T(7), actions: [claimHandle('nick', P1)] }) // re-claim moves nick to the end
    await f.applied({ ts: T(8), actions: [addMember(W2, I2)] })
    await f.applied({ ts: T(9), actions: [changeRecovery(W2, W1)] }) // W2 is a member with no chain id: recovery chain null
    await f.applied({ ts: T(10), actions: [revokeMember(W1, W2)] }) // removes W1 and I1 (adder W1); P1, W2, W3 stay
    await f.applied({ ts: T(11), actions: [revokeMember(W2, W2)] }) // removes W2 and I2; W2 keeps the recovery role
    await f.applied({ ts: T(12), actions: [addMember(P1, I3)] })
    await f.applied({ ts: T(13), actions: [addMember(W2, I4)] }) // the recovery identifier, not a member, adds
    f.state({
      members: [member(P1, W1, T(2)), member(W3, I1, T(4)), member(I3, P1, T(12)), member(I4, W2, T(13))],
      recovery: W2,
      recoveryChainId: null,
      handles: ['nick#2341', 'nick'],
      claimCount: 3,
    })
  },
)

fixture(
  'IDENT-004-out-of-order-file',
  {
    rules: ['IDENT-004'],
    description:
      'The file lists sequence ids 42, 5, 17; replay applies 5, 17, 42 (ascending, compared as numbers) and all apply.',
  },
  async (f) => {
    await f.applied(openWithInstallation(), 5n)
    await f.applied({ ts: T(2), actions: [addMember(W1, W2)] }, 17n)
    await f.applied({ ts: T(3), actions: [claimHandle('nick', I1)] }, 42n)
    f.fileOrder = [42n, 5n, 17n]
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1, handles: ['nick'] })
  },
)

const MAX_NONCE = (1n << 64n) - 1n
fixture(
  'IDENT-010-inbox-id-nonce',
  {
    rules: ['IDENT-010'],
    description:
      'A CreateInbox with nonce 2^64 - 1: the inbox id is SHA-256 of the address followed by the nonce in decimal.',
  },
  async (f) => {
    await f.applied({ ts: T(1), actions: [createInbox(W1, { nonce: MAX_NONCE }), addMember(W1, I1)] })
    await f.applied({ ts: T(2), actions: [claimHandle('nonce', W1)] })
    f.state({ members: openedMembers(), recovery: W1, handles: ['nonce'] })
  },
  deriveInboxId(W1.identifier.text, MAX_NONCE),
)

fixture(
  'IDENT-010-passkey-create',
  {
    rules: ['IDENT-010', 'IDENT-012'],
    description:
      'A passkey opens the inbox (IDENTIFIER_KIND_PASSKEY; the id is derived from the key hex) and adds an installation and a wallet.',
  },
  async (f) => {
    await f.applied({ ts: T(1), actions: [createInbox(P1), addMember(P1, I1)] })
    await f.applied({ ts: T(2), actions: [addMember(P1, W1)] })
    f.state({ members: [member(P1, null, T(1)), member(I1, P1, T(1)), member(W1, P1, T(2))], recovery: P1 })
  },
  deriveInboxId(P1.identifier.text, 0n),
)

const TS_MINUS_1NS = (1n << 64n) - 1n // -1 ns: 1969-12-31T23:59:59Z
const TS_1677 = (1n << 63n) + 1n // -(2^63 - 1) ns: 1677-09-21T00:12:43Z
const TS_MINUS_1_5S = (1n << 64n) - 1_500_000_000n // -1.5 s: 1969-12-31T23:59:58Z
fixture(
  'IDENT-020-timestamp-before-1970',
  {
    rules: ['IDENT-020'],
    description:
      'client_timestamp_ns of 2^64 - 1, 2^63 + 1 and 2^64 - 1.5e9 read as signed times before 1970, floored to the second (23:59:59, 1677-09-21T00:12:43, 23:59:58); all apply.',
  },
  async (f) => {
    await f.applied(openWithInstallation(TS_MINUS_1NS))
    await f.applied({ ts: TS_1677, actions: [addMember(W1, W2)] })
    await f.applied({ ts: TS_MINUS_1_5S, actions: [claimHandle('early', I1)] })
    f.state({ members: [...openedMembers(TS_MINUS_1NS), member(W2, W1, TS_1677)], recovery: W1, handles: ['early'] })
  },
)

/**
 * A signed update whose only erc_191 signature (in `role` of action 0) has recovery byte
 * `v`, found by moving the timestamp one second at a time (deterministic search).
 */
async function withRecoveryByte(
  v: 0 | 1 | 27 | 28,
  from: bigint,
  actions: (s: Signer) => DraftAction[],
  inboxId: string,
): Promise<SignedUpdate> {
  const signer = ethKeySigner(secret('wallet-1'), { v: v < 27 ? 'raw' : 'ethereum' })
  for (let k = 0n; k < 64n; k++) {
    const u = await signDraft(draftUpdate({ inboxId, clientTimestampNs: from + k * SECOND, actions: actions(signer) }))
    if (erc191(u.signatures[0]!.signature)[64] === v) return u
  }
  throw new Error(`no timestamp gives v = ${v}`)
}

fixture(
  'IDENT-030-erc191-recovery-bytes',
  {
    rules: ['IDENT-030'],
    description: 'erc_191 signatures with recovery byte v = 27 (create), 28, 0 and 1 (claims) all verify and apply.',
  },
  async (f) => {
    await f.applied({ signed: await withRecoveryByte(27, T(1), (s) => [createInbox(s)], INBOX) })
    await f.applied({ signed: await withRecoveryByte(28, T(2), (s) => [claimHandle('v28', s)], INBOX) })
    await f.applied({ signed: await withRecoveryByte(0, T(3), (s) => [claimHandle('v0', s)], INBOX) })
    await f.applied({ signed: await withRecoveryByte(1, T(4), (s) => [claimHandle('v1', s)], INBOX) })
    f.state({ members: [member(W1, null, T(1))], recovery: W1, handles: ['v28', 'v0', 'v1'] })
  },
)

fixture(
  'IDENT-030-passkey-high-s',
  {
    rules: ['IDENT-030'],
    description:
      'A passkey signature with s in the upper half of the P-256 order verifies: a high-s passkey add and a high-s passkey claim apply.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, P1_HIGH_S)] })
    await f.applied({ ts: T(3), actions: [claimHandle('highs', P1_HIGH_S)] })
    f.state({ members: [...openedMembers(), member(P1, W1, T(2))], recovery: W1, handles: ['highs'] })
  },
)

fixture(
  'IDENT-044-revoke-non-member',
  {
    rules: ['IDENT-044', 'IDENT-045', 'IDENT-040'],
    description:
      'Recovery moves to W2, not a member (chain null); W2 adds installation I1 as recovery identifier; revoking W2, still not a member, applies and removes I1 (adder W2); W1 and I2 stay.',
  },
  async (f) => {
    await f.applied({ ts: T(1), actions: [createInbox(W1)] })
    await f.applied({ ts: T(2), actions: [changeRecovery(W2, W1)] })
    await f.applied({ ts: T(3), actions: [addMember(W2, I1)] })
    await f.applied({ ts: T(4), actions: [addMember(W1, I2)] })
    await f.applied({ ts: T(5), actions: [revokeMember(W2, W2)] })
    f.state({ members: [member(W1, null, T(1)), member(I2, W1, T(4))], recovery: W2, recoveryChainId: null })
  },
)

fixture(
  'IDENT-045-recovery-to-passkey',
  {
    rules: ['IDENT-045', 'IDENT-044'],
    description:
      'Recovery moves to passkey P1 (IDENTIFIER_KIND_PASSKEY); P1 revokes the creator wallet (its installation I1 goes with it) and adds installation I2.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, P1)] })
    await f.applied({ ts: T(3), actions: [changeRecovery(P1, W1)] })
    await f.applied({ ts: T(4), actions: [revokeMember(W1, P1)] })
    await f.applied({ ts: T(5), actions: [addMember(P1, I2)] })
    f.state({ members: [member(P1, W1, T(2)), member(I2, P1, T(5))], recovery: P1, recoveryChainId: null })
  },
)

fixture(
  'IDENT-077-unspecified-kind-is-ethereum',
  {
    rules: ['IDENT-077'],
    description:
      'IDENTIFIER_KIND_UNSPECIFIED (0) reads as Ethereum in a CreateInbox and in a ChangeRecoveryAddress; the new recovery wallet revokes I1.',
  },
  async (f) => {
    await f.applied({ ts: T(1), actions: [createInbox(W1, { initialIdentifierKind: 0 }), addMember(W1, I1)] })
    await f.applied({ ts: T(2), actions: [changeRecovery(W2, W1, { newRecoveryIdentifierKind: 0 })] })
    await f.applied({ ts: T(3), actions: [revokeMember(I1, W2)] })
    f.state({ members: [member(W1, null, T(1))], recovery: W2 })
  },
)

const HANDLE_32 = `a${'z'.repeat(26)}#1234`
const NAME_27 = `q${'w'.repeat(26)}`
fixture(
  'IDENT-078-handle-grammar-boundaries',
  {
    rules: ['IDENT-078', 'IDENT-082'],
    description:
      'Handles at the grammar boundaries apply: 32 characters (27-character name + #1234), a 27-character name, a single letter, and x_y-z0#0000.',
  },
  async (f) => {
    await f.applied({ ts: T(1), actions: [createInbox(W1)] })
    await f.applied({ ts: T(2), actions: [claimHandle(HANDLE_32, W1)] })
    await f.applied({ ts: T(3), actions: [claimHandle(NAME_27, W1)] })
    await f.applied({ ts: T(4), actions: [claimHandle('a', W1)] })
    await f.applied({ ts: T(5), actions: [claimHandle('x_y-z0#0000', W1)] })
    f.state({ members: [member(W1, null, T(1))], recovery: W1, handles: [HANDLE_32, NAME_27, 'a', 'x_y-z0#0000'] })
  },
)

fixture(
  'IDENT-082-reclaim-moves-to-end',
  {
    rules: ['IDENT-082', 'IDENT-083', 'IDENT-086'],
    description:
      'Claims alice, alice#0001, bob, then alice again and bob again: handles end as alice#0001, alice, bob (display handle bob); claim count 5. Updates as base64 in the bundle.',
    encoding: 'base64',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [claimHandle('alice', W1)] })
    await f.applied({ ts: T(3), actions: [claimHandle('alice#0001', I1)] })
    await f.applied({ ts: T(4), actions: [claimHandle('bob', W1)] })
    await f.applied({ ts: T(5), actions: [claimHandle('alice', I1)] })
    await f.applied({ ts: T(6), actions: [claimHandle('bob', W1)] })
    f.state({ members: openedMembers(), recovery: W1, handles: ['alice#0001', 'alice', 'bob'], claimCount: 5 })
  },
)

fixture(
  'IDENT-001-field-4-beside-erc191-ignored',
  {
    rules: ['IDENT-001'],
    description:
      'A new member Signature carries the retired field 4 (holding another wallet’s signature) beside its erc_191: field 4 is an unknown field, ignored; the update applies.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const u = await signDraft(draftUpdate({ inboxId: INBOX, clientTimestampNs: T(2), actions: [addMember(W1, W2)] }))
    const decoy = erc191(await W3.sign(u.text))
    await f.applied({ signed: u, bytes: addField4Beside(u.bytes, 0, decoy) })
    await f.applied({ ts: T(3), actions: [claimHandle('nick', W2)] })
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1, handles: ['nick'] })
  },
)

// ---- smart contract wallets (fake verifier) ------------------------------------------------

fixture(
  'IDENT-060-smart-wallet-valid',
  {
    rules: ['IDENT-060', 'IDENT-012', 'IDENT-046'],
    verifier: 'fake',
    description:
      'A smart contract wallet on chain 8453 (account_id with the checksummed address) opens the inbox: member and recovery record chain 8453; it adds an installation and a wallet and claims a handle.',
  },
  async (f) => {
    const sc = smartWallet(8453n, checksumAddress(SC1_ADDRESS))
    await f.applied({ ts: T(1), actions: [createInbox(sc), addMember(sc, I1)] })
    await f.applied({ ts: T(2), actions: [addMember(sc, W1)] })
    await f.applied({ ts: T(3), actions: [claimHandle('wallet', sc)] })
    f.state({
      members: [member(sc, null, T(1), 8453n), member(I1, sc, T(1)), member(W1, sc, T(2))],
      recovery: sc,
      recoveryChainId: 8453n,
      handles: ['wallet'],
    })
  },
  deriveInboxId(SC1_ADDRESS, 0n),
)

fixture(
  'IDENT-045-recovery-chain-from-member',
  {
    rules: ['IDENT-045', 'IDENT-046'],
    verifier: 'fake',
    description:
      'A smart wallet added on chain 10 becomes the recovery identifier, which records chain 10 from its member record; it then revokes the creator on chain 10.',
  },
  async (f) => {
    const sc = smartWallet(10n, SC2_ADDRESS)
    await f.applied({ ts: T(1), actions: [createInbox(W1)] })
    await f.applied({ ts: T(2), actions: [addMember(W1, sc)] })
    await f.applied({ ts: T(3), actions: [changeRecovery(sc, W1)] })
    await f.applied({ ts: T(4), actions: [revokeMember(W1, sc)] })
    f.state({ members: [member(sc, W1, T(2), 10n)], recovery: sc, recoveryChainId: 10n })
  },
)

// ---- rejections ---------------------------------------------------------------------------

fixture(
  'IDENT-001-empty-actions',
  {
    rules: ['IDENT-001'],
    description: 'An update with no actions (only inbox_id and client_timestamp_ns) is rejected; action_index null.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-001', null, {
      bytes: encodeUpdate({ inboxId: INBOX, clientTimestampNs: T(2), actions: [] }),
    })
    await f.notApplied({ ts: T(3), actions: [claimHandle('nick', W1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-001-signature-field-4-only',
  {
    rules: ['IDENT-001'],
    description:
      'The second action’s new member Signature holds only the retired field 4 (bytes crafted by hand), so its signature is unset: rejected at action 1.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const u = await signDraft(
      draftUpdate({ inboxId: INBOX, clientTimestampNs: T(2), actions: [addMember(W1, P1), addMember(W1, W2)] }),
    )
    await f.rejected('IDENT-001', 1, { bytes: retireToField4(u.bytes, erc191(sigOf(u, 1, 'new_member_signature'))) })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-001-invalid-hex',
  {
    rules: ['IDENT-001'],
    description:
      'A bundle entry whose update_hex is not hex is a rejected update (IDENT-001, action_index null), not an unreadable file.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const u = await signDraft(draftUpdate({ inboxId: INBOX, clientTimestampNs: T(2), actions: [addMember(W1, W2)] }))
    const hex = bytesToHex(u.bytes)
    await f.rejected('IDENT-001', null, { hexText: `${hex.slice(0, 10)}zz${hex.slice(12)}` })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-002-whole-update-or-nothing',
  {
    rules: ['IDENT-002', 'IDENT-040'],
    description:
      'Action 0 (add W2) is valid but action 1 fails IDENT-040: the whole update is rejected at action 1 and W2 is not a member.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-040', 1, {
      ts: T(2),
      actions: [addMember(W1, W2), addMember(W1, W4, { newMemberIdentifier: ethId(W3.identifier.text) })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-003-inbox-id-mismatch',
  {
    rules: ['IDENT-003'],
    description:
      'A validly signed add whose inbox_id names another inbox of the same wallet (nonce 1): rejected, action_index null.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-003', null, {
      ts: T(2),
      inboxId: deriveInboxId(W1.identifier.text, 1n),
      actions: [addMember(W1, W2)],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-011-first-action-not-create',
  {
    rules: ['IDENT-011'],
    description:
      'The first update of the log is an add, applied to no state: rejected at action 0; the create after it is not applied.',
  },
  async (f) => {
    await f.rejected('IDENT-011', 0, { ts: T(1), actions: [addMember(W1, I1)] })
    await f.notApplied(openWithInstallation(T(2)))
  },
)

fixture(
  'IDENT-011-second-create',
  {
    rules: ['IDENT-011'],
    description:
      'A second CreateInbox (same wallet, same nonce, same inbox id) on an inbox that has state: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-011', 0, { ts: T(2), actions: [createInbox(W1)] })
    await f.notApplied({ ts: T(3), actions: [claimHandle('nick', W1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-012-creator-signature-other-key',
  {
    rules: ['IDENT-012'],
    description: 'A CreateInbox naming W1 whose initial_identifier_signature is by W2: rejected at action 0, no state.',
  },
  async (f) => {
    await f.rejected('IDENT-012', 0, {
      ts: T(1),
      actions: [createInbox(W2, { initialIdentifier: W1.identifier.text }), addMember(W1, I1)],
    })
    await f.notApplied(openWithInstallation(T(2)))
  },
)

fixture(
  'IDENT-013-add-checksummed-address',
  {
    rules: ['IDENT-013'],
    description:
      'An add whose new_member_identifier is the EIP-55 checksummed spelling of W2 (signed over that text): rejected under IDENT-013 at action 0.',
  },
  async (f) => {
    const mixed = checksumAddress(W2.identifier.text)
    if (mixed === W2.identifier.text) throw new Error('checksummed address has no uppercase letter')
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-013', 0, { ts: T(2), actions: [addMember(W1, W2, { newMemberIdentifier: ethId(mixed) })] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-013-change-recovery-uppercase',
  {
    rules: ['IDENT-013'],
    description: 'A ChangeRecoveryAddress to 0x + uppercase hex, signed by the recovery wallet: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-013', 0, {
      ts: T(2),
      actions: [changeRecovery(`0x${W2.identifier.text.slice(2).toUpperCase()}`, W1)],
    })
    await f.notApplied({ ts: T(3), actions: [changeRecovery(W2, W1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-030-erc191-bad-recovery-byte',
  {
    rules: ['IDENT-030'],
    description:
      'The existing member erc_191 signature carries recovery byte v = 29: it does not verify; rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const v29 = {
      transform: (s: WireSignature): WireSignature => ({
        kind: 'erc_191',
        bytes: erc191(s).map((b, i) => (i === 64 ? 29 : b)),
      }),
    }
    await f.rejected('IDENT-030', 0, { ts: T(2), actions: [addMember(W1, W2, { existingSignature: v29 })] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-030-erc191-r-not-on-curve',
  {
    rules: ['IDENT-030'],
    description:
      'The new member erc_191 signature has an r that is the x of no secp256k1 point, so no public key recovers: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const r = be32(xWithNoCurvePoint())
    const badR = {
      transform: (s: WireSignature): WireSignature => {
        const b = new Uint8Array(erc191(s))
        b.set(r, 0)
        return { kind: 'erc_191', bytes: b }
      },
    }
    await f.rejected('IDENT-030', 0, { ts: T(2), actions: [addMember(W1, W2, { newMemberSignature: badR })] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-030-installation-sig-corrupted',
  {
    rules: ['IDENT-030'],
    description:
      'The new installation’s Ed25519ph signature has one bit of R flipped: it does not verify; rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const flip = {
      transform: (s: WireSignature): WireSignature => {
        if (s.kind !== 'installation_key') throw new Error('kind')
        return { ...s, bytes: s.bytes.map((b, i) => (i === 0 ? b ^ 0x01 : b)) }
      },
    }
    await f.rejected('IDENT-030', 0, { ts: T(2), actions: [addMember(W1, I2, { newMemberSignature: flip })] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-030-installation-sig-other-timestamp',
  {
    rules: ['IDENT-030', 'IDENT-020'],
    description:
      'The new installation signed the text of the same update one second later (another Current time): it does not verify over the update’s own text.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-030', 0, {
      ts: T(2),
      actions: [addMember(W1, I2, { newMemberSignature: { over: { clientTimestampNs: T(2) + SECOND } } })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-030-passkey-wrong-challenge',
  {
    rules: ['IDENT-030'],
    description:
      'The passkey assertion’s challenge is the text of another timestamp (the P-256 signature itself is valid): rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-030', 0, {
      ts: T(2),
      actions: [addMember(W1, P1, { newMemberSignature: { over: { clientTimestampNs: T(2) + SECOND } } })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, P1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-031-installation-sig-for-ethereum-member',
  {
    rules: ['IDENT-031'],
    description:
      'An add of Ethereum W2 whose new member signature is an installation_key signature: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-031', 0, {
      ts: T(2),
      actions: [addMember(W1, I2, { newMemberIdentifier: ethId(W2.identifier.text) })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-031-passkey-sig-for-ethereum-recovery',
  {
    rules: ['IDENT-031'],
    description:
      'A revoke whose recovery signature is a passkey signature (by member P1) while the recovery identifier is an Ethereum address: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, P1)] })
    await f.rejected('IDENT-031', 0, { ts: T(3), actions: [revokeMember(I1, P1)] })
    await f.notApplied({ ts: T(4), actions: [revokeMember(I1, W1)] })
    f.state({ members: [...openedMembers(), member(P1, W1, T(2))], recovery: W1 })
  },
)

fixture(
  'IDENT-031-create-installation-signature',
  {
    rules: ['IDENT-031'],
    description:
      'A CreateInbox of Ethereum W1 signed with an installation_key signature: rejected at action 0, no state.',
  },
  async (f) => {
    await f.rejected('IDENT-031', 0, {
      ts: T(1),
      actions: [createInbox(I1, { initialIdentifier: W1.identifier.text, initialIdentifierKind: ETH })],
    })
    await f.notApplied(openWithInstallation(T(2)))
  },
)

fixture(
  'IDENT-040-add-signer-mismatch',
  {
    rules: ['IDENT-040'],
    description: 'An add naming W2 whose new member signature is by W3: rejected at action 0.',
    allFormats: true,
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-040', 0, {
      ts: T(2),
      actions: [addMember(W1, W3, { newMemberIdentifier: ethId(W2.identifier.text) })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-040-erc191-sig-other-timestamp',
  {
    rules: ['IDENT-040', 'IDENT-020'],
    description:
      'The new wallet signed the text of another timestamp: an erc_191 signature always recovers, here to an unrelated address, so the failure is the signer mismatch of IDENT-040.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-040', 0, {
      ts: T(2),
      actions: [addMember(W1, W2, { newMemberSignature: { over: { clientTimestampNs: T(2) + SECOND } } })],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-040-existing-signer-not-member',
  {
    rules: ['IDENT-040'],
    description:
      'An add whose existing member signature is by W3, neither a member nor the recovery identifier: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-040', 0, { ts: T(2), actions: [addMember(W3, W2)] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-040-both-signers-equal',
  {
    rules: ['IDENT-040'],
    description:
      'Recovery is passkey P1 (not a member); P1 then adds itself, signing as existing (recovery) and as new member (two different assertions): the two signers are equal, rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [changeRecovery(P1, W1)] })
    await f.rejected('IDENT-040', 0, { ts: T(3), actions: [addMember(P1, P1_OTHER_ORIGIN)] })
    await f.notApplied({ ts: T(4), actions: [addMember(W1, P1)] })
    f.state({ members: openedMembers(), recovery: P1, recoveryChainId: null })
  },
)

fixture(
  'IDENT-040-add-current-member',
  {
    rules: ['IDENT-040'],
    description: 'A second add of W2 (fresh signatures) while W2 is a member: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, W2)] })
    await f.rejected('IDENT-040', 0, { ts: T(3), actions: [addMember(W1, W2)] })
    await f.notApplied({ ts: T(4), actions: [claimHandle('nick', W2)] })
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1 })
  },
)

fixture(
  'IDENT-041-installation-adds-installation',
  { rules: ['IDENT-041'], description: 'Installation I1 signs the add of installation I2: rejected at action 0.' },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-041', 0, { ts: T(2), actions: [addMember(I1, I2)] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-043-revoke-by-non-recovery',
  {
    rules: ['IDENT-043'],
    description: 'Member W2, not the recovery identifier, signs the revoke of I1: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, W2)] })
    await f.rejected('IDENT-043', 0, { ts: T(3), actions: [revokeMember(I1, W2)] })
    await f.notApplied({ ts: T(4), actions: [revokeMember(I1, W1)] })
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1 })
  },
)

fixture(
  'IDENT-045-change-recovery-by-non-recovery',
  { rules: ['IDENT-045'], description: 'Member W2 signs a ChangeRecoveryAddress to itself: rejected at action 0.' },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, W2)] })
    await f.rejected('IDENT-045', 0, { ts: T(3), actions: [changeRecovery(W2, W2)] })
    await f.notApplied({ ts: T(4), actions: [changeRecovery(W2, W1)] })
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1 })
  },
)

fixture(
  'IDENT-046-erc6492-sig-from-erc191-member',
  {
    rules: ['IDENT-046'],
    verifier: 'fake',
    description:
      'W2 was added with erc_191 (no chain id); a valid erc_6492 signature for the same address on chain 1 signs an add as existing member: the chain differs, rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, W2)] })
    await f.rejected('IDENT-046', 0, { ts: T(3), actions: [addMember(smartWallet(1n, W2.identifier.text), P1)] })
    await f.notApplied({ ts: T(4), actions: [addMember(W2, P1)] })
    f.state({ members: [...openedMembers(), member(W2, W1, T(2))], recovery: W1 })
  },
)

fixture(
  'IDENT-046-smart-wallet-other-chain',
  {
    rules: ['IDENT-046'],
    verifier: 'fake',
    description:
      'A smart wallet member added on chain 1 signs an add with the same address on chain 10: rejected at action 0.',
  },
  async (f) => {
    const on1 = smartWallet(1n, SC1_ADDRESS)
    await f.applied({ ts: T(1), actions: [createInbox(on1), addMember(on1, I1)] })
    await f.rejected('IDENT-046', 0, { ts: T(2), actions: [addMember(smartWallet(10n, SC1_ADDRESS), I2)] })
    await f.notApplied({ ts: T(3), actions: [addMember(on1, I2)] })
    f.state({ members: [member(on1, null, T(1), 1n), member(I1, on1, T(1))], recovery: on1, recoveryChainId: 1n })
  },
  deriveInboxId(SC1_ADDRESS, 0n),
)

fixture(
  'IDENT-046-recovery-chain-survives-revocation',
  {
    rules: ['IDENT-046', 'IDENT-044'],
    verifier: 'fake',
    description:
      'A smart wallet (chain 1) opens the inbox, adds W2 and revokes itself as member (keeps the role, chain 1); its revoke of W2 on chain 10 is rejected at action 0.',
  },
  async (f) => {
    const on1 = smartWallet(1n, SC1_ADDRESS)
    await f.applied({ ts: T(1), actions: [createInbox(on1)] })
    await f.applied({ ts: T(2), actions: [addMember(on1, W2)] })
    await f.applied({ ts: T(3), actions: [revokeMember(on1, on1)] })
    await f.rejected('IDENT-046', 0, { ts: T(4), actions: [revokeMember(W2, smartWallet(10n, SC1_ADDRESS))] })
    await f.notApplied({ ts: T(5), actions: [revokeMember(W2, on1)] })
    f.state({ members: [member(W2, on1, T(2))], recovery: on1, recoveryChainId: 1n })
  },
  deriveInboxId(SC1_ADDRESS, 0n),
)

/** open, add W2, revoke W2; returns the signed add for replays. */
async function addThenRevokeW2(f: Fixture): Promise<SignedUpdate> {
  await f.applied(openWithInstallation())
  const add = await f.applied({ ts: T(2), actions: [addMember(W1, W2)] })
  await f.applied({ ts: T(3), actions: [revokeMember(W2, W1)] })
  return add
}

fixture(
  'IDENT-050-replay-after-revocation',
  {
    rules: ['IDENT-050'],
    description:
      'W2 is added, then revoked; the add is published again byte for byte: its signatures were used, rejected at action 0.',
    allFormats: true,
  },
  async (f) => {
    const add = await addThenRevokeW2(f)
    await f.rejected('IDENT-050', 0, { bytes: add.bytes })
    await f.notApplied({ ts: T(5), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-050-replay-malleated-v',
  {
    rules: ['IDENT-050'],
    description:
      'The revoked add re-published with both erc_191 signatures re-encoded with v 0 | 1 instead of 27 | 28: the canonical replay keys collide.',
  },
  async (f) => {
    const add = await addThenRevokeW2(f)
    const re = withSignatures(add, (s) => ({ kind: 'erc_191', bytes: malleateErc191(erc191(s), { v: 'raw' }) }))
    await f.rejected('IDENT-050', 0, { bytes: re.bytes })
    await f.notApplied({ ts: T(5), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-050-replay-malleated-high-s',
  {
    rules: ['IDENT-050'],
    description:
      'The revoked add re-published with both erc_191 signatures malleated to s = n - s (v flipped): the canonical replay keys collide.',
  },
  async (f) => {
    const add = await addThenRevokeW2(f)
    const re = withSignatures(add, (s) => ({ kind: 'erc_191', bytes: malleateErc191(erc191(s), { negateS: true }) }))
    await f.rejected('IDENT-050', 0, { bytes: re.bytes })
    await f.notApplied({ ts: T(5), actions: [addMember(W1, W2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-050-replay-claim-passkey-high-s',
  {
    rules: ['IDENT-050', 'IDENT-082'],
    description:
      'An old passkey claim re-published with its P-256 signature as the high-s twin (to make "old" the display handle again): rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [addMember(W1, P1)] })
    const old = await f.applied({ ts: T(3), actions: [claimHandle('old', P1)] })
    await f.applied({ ts: T(4), actions: [claimHandle('new', W1)] })
    const twin = await signDraft(
      draftUpdate({ inboxId: INBOX, clientTimestampNs: T(3), actions: [claimHandle('old', P1_HIGH_S)] }),
    )
    if (bytesToHex(twin.bytes) === bytesToHex(old.bytes)) throw new Error('the high-s twin is the same bytes')
    await f.rejected('IDENT-050', 0, { bytes: twin.bytes })
    await f.notApplied({ ts: T(6), actions: [claimHandle('newer', W1)] })
    f.state({ members: [...openedMembers(), member(P1, W1, T(2))], recovery: W1, handles: ['old', 'new'] })
  },
)

/** An add of the smart wallet SC1 (as new member) whose erc_6492 account_id is replaced. */
function addWithAccountId(accountId: string): DraftAction {
  return addMember(W1, smartWallet(1n, SC1_ADDRESS), {
    newMemberSignature: {
      transform: (s) => {
        if (s.kind !== 'erc_6492') throw new Error('kind')
        return { ...s, accountId }
      },
    },
  })
}

fixture(
  'IDENT-060-account-id-not-eip155',
  {
    rules: ['IDENT-060'],
    description:
      'An erc_6492 account_id in the solana namespace: rejected by the form check at action 0, before any chain access.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-060', 0, {
      ts: T(2),
      actions: [addWithAccountId(`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SC1_ADDRESS}`)],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-060-chain-id-leading-zero',
  {
    rules: ['IDENT-060'],
    description:
      'An erc_6492 account_id eip155:01:<address> (chain id with a leading zero): rejected by the form check at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-060', 0, { ts: T(2), actions: [addWithAccountId(`eip155:01:${SC1_ADDRESS}`)] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-060-bad-address',
  {
    rules: ['IDENT-060'],
    description: 'An erc_6492 account_id whose address has 39 hex characters: rejected by the form check at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-060', 0, { ts: T(2), actions: [addWithAccountId(`eip155:1:${SC1_ADDRESS.slice(0, 41)}`)] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-060-smart-wallet-invalid',
  {
    rules: ['IDENT-060'],
    verifier: 'fake',
    description:
      'The wallet contract does not validate the erc_6492 signature (the fake verifier answers invalid): rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    const bad = smartWalletSigner({
      chainId: 1n,
      address: SC1_ADDRESS,
      blockNumber: BLOCK,
      signature: () => new Uint8Array(65),
    })
    await f.rejected('IDENT-060', 0, { ts: T(2), actions: [addMember(W1, bad)] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-061-pending-no-verifier',
  {
    rules: ['IDENT-061'],
    description:
      'An add of a smart wallet (erc_6492 on chain 1) replayed with no chain access: pending (IDENT-061, action 0), later updates not applied.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.pending(0, { ts: T(2), actions: [addMember(W1, smartWallet(1n, SC1_ADDRESS))] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-061-unrouted-chain',
  {
    rules: ['IDENT-061'],
    verifier: 'fake',
    description:
      'An erc_6492 signature on chain 999, for which the verifier has no route (ChainUnreachableError): pending, not rejected.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.pending(0, { ts: T(2), actions: [addMember(W1, smartWallet(999n, SC1_ADDRESS))] })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-061-rejected-beats-pending',
  {
    rules: ['IDENT-061', 'IDENT-040'],
    description:
      'Action 0 holds an erc_6492 signature that cannot be judged, action 1 fails IDENT-040: the update is rejected (IDENT-040, action 1), not pending.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-040', 1, {
      ts: T(2),
      actions: [
        addMember(W1, smartWallet(1n, SC1_ADDRESS)),
        addMember(W1, W4, { newMemberIdentifier: ethId(W3.identifier.text) }),
      ],
    })
    await f.notApplied({ ts: T(3), actions: [addMember(W1, I2)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-077-create-kind-handle',
  {
    rules: ['IDENT-077'],
    description:
      'A CreateInbox with initial_identifier_kind IDENTIFIER_KIND_HANDLE (3): rejected at action 0, no state.',
  },
  async (f) => {
    await f.rejected('IDENT-077', 0, {
      ts: T(1),
      actions: [createInbox(W1, { initialIdentifierKind: IdentifierKindValue.HANDLE }), addMember(W1, I1)],
    })
    await f.notApplied(openWithInstallation(T(2)))
  },
)

fixture(
  'IDENT-077-change-recovery-kind-7',
  {
    rules: ['IDENT-077'],
    description:
      'A ChangeRecoveryAddress with new_recovery_identifier_kind 7, a value IdentifierKind does not list: rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-077', 0, { ts: T(2), actions: [changeRecovery(W2, W1, { newRecoveryIdentifierKind: 7 })] })
    await f.notApplied({ ts: T(3), actions: [changeRecovery(W2, W1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

for (const [slug, handle, what] of [
  ['uppercase', 'Nick', 'an uppercase letter (Nick)'],
  ['33-chars', `n${'i'.repeat(27)}#1234`, '33 characters (a 28-character name + #1234)'],
  ['code-3-digits', 'nick#123', 'a code of three digits (nick#123)'],
  ['starts-with-digit', '1nick', 'a first character that is a digit (1nick)'],
] as const) {
  fixture(
    `IDENT-078-handle-${slug}`,
    { rules: ['IDENT-078'], description: `A claim of a handle with ${what}: rejected at action 0, never rewritten.` },
    async (f) => {
      await f.applied(openWithInstallation())
      await f.rejected('IDENT-078', 0, { ts: T(2), actions: [claimHandle(handle, W1)] })
      await f.notApplied({ ts: T(3), actions: [claimHandle('nick', W1)] })
      f.state({ members: openedMembers(), recovery: W1 })
    },
  )
}

fixture(
  'IDENT-079-claim-with-other-action',
  { rules: ['IDENT-079'], description: 'An update holding a ClaimHandle and an add: rejected, action_index null.' },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.rejected('IDENT-079', null, { ts: T(2), actions: [claimHandle('nick', W1), addMember(W1, W2)] })
    await f.notApplied({ ts: T(3), actions: [claimHandle('nick', W1)] })
    f.state({ members: openedMembers(), recovery: W1 })
  },
)

fixture(
  'IDENT-080-65th-claim',
  {
    rules: ['IDENT-080', 'IDENT-082'],
    description:
      '64 claims (nick0..nick15 four times over: re-claims count) apply; the 65th claim is rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    for (let i = 0; i < 64; i++)
      await f.applied({ ts: T(2 + i), actions: [claimHandle(`nick${i % 16}`, i % 2 === 0 ? W1 : I1)] })
    await f.rejected('IDENT-080', 0, { ts: T(66), actions: [claimHandle('nick16', W1)] })
    await f.notApplied({ ts: T(67), actions: [claimHandle('nick17', W1)] })
    f.state({
      members: openedMembers(),
      recovery: W1,
      handles: Array.from({ length: 16 }, (_, i) => `nick${i}`),
      claimCount: 64,
    })
  },
)

fixture(
  'IDENT-081-claim-by-revoked-installation',
  {
    rules: ['IDENT-081'],
    description: 'Installation I1 is revoked, then signs a claim: its signer is not a member, rejected at action 0.',
  },
  async (f) => {
    await f.applied(openWithInstallation())
    await f.applied({ ts: T(2), actions: [revokeMember(I1, W1)] })
    await f.rejected('IDENT-081', 0, { ts: T(3), actions: [claimHandle('nick', I1)] })
    await f.notApplied({ ts: T(4), actions: [claimHandle('nick', W1)] })
    f.state({ members: [member(W1, null, T(1))], recovery: W1 })
  },
)

// ---------------------------------------------------------------------------------------
// Writing

function bundleJson(f: Fixture): string {
  const entries = f.fileEntries()
  const encoding = f.meta.encoding ?? 'hex'
  const text = encodeBundleJson(
    {
      inboxId: f.inboxId,
      updates: entries.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes ?? new Uint8Array(0) })),
    },
    encoding,
  )
  if (!entries.some((e) => e.hexText !== undefined)) return text
  // An entry that is not valid hex cannot come from bytes: put its text in by hand.
  const doc = JSON.parse(text) as { inbox_id: string; updates: { sequence_id: string; update_hex?: string }[] }
  entries.forEach((e, i) => {
    if (e.hexText !== undefined) doc.updates[i] = { sequence_id: e.sequenceId.toString(), update_hex: e.hexText }
  })
  return `${JSON.stringify(doc, null, 2)}\n`
}

/** Server timestamps for the container forms: one second per sequence id after T0. */
const serverTs = (seq: bigint): bigint => T0 + seq * SECOND

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  // Remove what an earlier run wrote (generated forms only; hand-written .ts files stay).
  for (const file of readdirSync(OUT)) {
    if (/\.(json|pb)$/.test(file)) rmSync(join(OUT, file))
  }
  const names = new Set<string>()
  const index: unknown[] = []
  for (const { name, inboxId, meta, build } of corpus) {
    if (names.has(name)) throw new Error(`duplicate fixture ${name}`)
    names.add(name)
    const f = new Fixture(name, inboxId, meta)
    await build(f)
    const expected = f.expected() as { ok: boolean }
    const files: Record<string, string> = { bundle: `${name}.json` }
    writeFileSync(join(OUT, files.bundle!), bundleJson(f))
    if (meta.allFormats) {
      const log = {
        inboxId,
        updates: f.fileEntries().map((e) => {
          if (!e.bytes) throw new Error(`${name}: a container form needs the bytes of every update`)
          return { sequenceId: e.sequenceId, serverTimestampNs: serverTs(e.sequenceId), bytes: e.bytes }
        }),
      }
      files.pb = `${name}.pb`
      files.gateway = `${name}.gateway.json`
      writeFileSync(join(OUT, files.pb), encodeGetIdentityUpdatesResponse([log]))
      writeFileSync(join(OUT, files.gateway), `${JSON.stringify(toGatewayJson([log]), null, 2)}\n`)
    }
    writeFileSync(join(OUT, `${name}.expected.json`), `${JSON.stringify(expected, null, 2)}\n`)
    index.push({
      name,
      rules: meta.rules,
      description: meta.description,
      ok: expected.ok,
      verifier: meta.verifier ?? 'none',
      files,
      expected: `${name}.expected.json`,
    })
  }
  const doc = {
    '//': 'Generated by scripts/gen-fixtures.ts (npm run fixtures); do not edit. Expected reports are declared from the spec by the generator, not computed by the validator.',
    format: 1,
    verifiers: {
      none: 'replay with no SmartWalletVerifier: an erc_6492 signature that passes its form check cannot be judged (IDENT-061)',
      fake: FAKE_VERIFIER_DESCRIPTION,
    },
    expected_shape:
      '{ name, verifier, inbox_id, ok, updates: [{ sequence_id, status, rule, action_index }], state: null | { inbox_id, sequence_id, members (sorted by kind, then identifier), recovery, handles, claim_count, seen_replay_keys_count }, handles: { current, others } }',
    fixtures: index,
  }
  writeFileSync(join(OUT, 'index.json'), `${JSON.stringify(doc, null, 2)}\n`)
  process.stdout.write(`wrote ${index.length} fixtures to ${OUT}\n`)
}

await main()
