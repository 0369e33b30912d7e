/**
 * MLS KeyPackage reading (RFC 9420 §10, with the LeafNode of §7.2 and the TLS
 * presentation language of §2.1.2: variable-length vectors carry a QUIC-style varint
 * length of 1, 2 or 4 bytes). The node checks what a key package's framing allows:
 *
 *   KP-001  not empty, at most MAX_KEY_PACKAGE_BYTES
 *   KP-002  the whole TLS structure parses, with no byte left over: version, cipher suite,
 *           init key, leaf node (encryption key, signature key, credential, capabilities,
 *           source, lifetime, extensions, signature), extensions, signature
 *   KP-003  protocol version mls10 (1)
 *   KP-004  a cipher suite whose signature scheme is Ed25519 (suites 1 and 3, XMTP's), so
 *           the signature key is an installation key: 32 bytes
 *   KP-005  the leaf node's source is key_package (1) and its lifetime is not over
 *   KP-006  a basic credential (type 1) with a non-empty identity
 *   KP-007  the leaf node's signature (SignWithLabel "LeafNodeTBS") and the key package's
 *           (SignWithLabel "KeyPackageTBS") verify under the signature key (Ed25519)
 *
 * A key package may also come wrapped in an MLSMessage (version, wire_format 5).
 * Every read is bounded by the input; the parser allocates nothing proportional to a
 * declared length that is not there.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto'
import { base64urlNoPad, utf8 } from '../crypto/bytes'

export const MAX_KEY_PACKAGE_BYTES = 64 * 1024

/** MLS 1.0 (ProtocolVersion mls10). */
const MLS10 = 1
/** Cipher suites whose signature scheme is Ed25519: MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519, …_CHACHA20POLY1305_SHA256_Ed25519. */
const ED25519_SUITES = new Set([0x0001, 0x0003])
const WIRE_FORMAT_KEY_PACKAGE = 5
const CREDENTIAL_BASIC = 1
const LEAF_SOURCE_KEY_PACKAGE = 1

export type KeyPackageRule = 'KP-001' | 'KP-002' | 'KP-003' | 'KP-004' | 'KP-005' | 'KP-006' | 'KP-007'

export class KeyPackageError extends Error {
  override readonly name = 'KeyPackageError'
  constructor(
    readonly rule: KeyPackageRule,
    message: string,
  ) {
    super(`${rule}: ${message}`)
  }
}

export interface KeyPackageInfo {
  readonly version: number
  readonly cipherSuite: number
  /** The leaf node's signature key: the installation key (32 bytes). */
  readonly installationKey: Uint8Array
  /** The basic credential's identity bytes (XMTP: an MlsCredential message naming the inbox). */
  readonly credentialIdentity: Uint8Array
  readonly notBefore: bigint
  readonly notAfter: bigint
  /** The key package as it was framed (an MLSMessage wrapper removed). */
  readonly keyPackage: Uint8Array
}

class Reader {
  at = 0
  constructor(readonly b: Uint8Array) {}

  private need(n: number, what: string): void {
    if (this.b.length - this.at < n)
      throw new KeyPackageError(
        'KP-002',
        `${what} needs ${n} bytes at offset ${this.at}, ${this.b.length - this.at} left`,
      )
  }

  u8(what: string): number {
    this.need(1, what)
    return this.b[this.at++]!
  }

  u16(what: string): number {
    this.need(2, what)
    const v = (this.b[this.at]! << 8) | this.b[this.at + 1]!
    this.at += 2
    return v
  }

  u64(what: string): bigint {
    this.need(8, what)
    const v = new DataView(this.b.buffer, this.b.byteOffset + this.at, 8).getBigUint64(0)
    this.at += 8
    return v
  }

  /** A variable-length vector (RFC 9420 §2.1.2): its bytes. */
  vector(what: string): Uint8Array {
    const first = this.u8(`${what} length`)
    const prefix = first >> 6
    let len = first & 0x3f
    if (prefix === 3) throw new KeyPackageError('KP-002', `${what}: invalid length prefix at offset ${this.at - 1}`)
    const extra = prefix === 0 ? 0 : prefix === 1 ? 1 : 3
    for (let i = 0; i < extra; i++) len = len * 256 + this.u8(`${what} length`)
    // Minimal encoding (§2.1.2: a length must use the shortest form).
    if ((prefix === 1 && len < 64) || (prefix === 2 && len < 16384))
      throw new KeyPackageError('KP-002', `${what}: length ${len} is not minimally encoded`)
    this.need(len, what)
    const v = this.b.subarray(this.at, this.at + len)
    this.at += len
    return v
  }
}

function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: base64urlNoPad(publicKey) }, format: 'jwk' })
    return verifySignature(null, message, key, signature)
  } catch {
    return false
  }
}

/** A vector's TLS encoding: the minimal varint length, then the bytes. */
function encodeVector(v: Uint8Array): Uint8Array {
  const n = v.length
  const head =
    n < 64
      ? [n]
      : n < 16384
        ? [0x40 | (n >> 8), n & 0xff]
        : [0x80 | (n >>> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
  const out = new Uint8Array(head.length + n)
  out.set(head)
  out.set(v, head.length)
  return out
}

/** SignWithLabel's signed content (RFC 9420 §5.1.2): SignContent { "MLS 1.0 " + label, content }. */
function signContent(label: string, content: Uint8Array): Uint8Array {
  const l = encodeVector(utf8(`MLS 1.0 ${label}`))
  const c = encodeVector(content)
  const out = new Uint8Array(l.length + c.length)
  out.set(l)
  out.set(c, l.length)
  return out
}

/** Unwraps an MLSMessage carrying a key package; other input is returned as it is. */
function unwrap(bytes: Uint8Array): Uint8Array {
  if (
    bytes.length >= 4 &&
    bytes[0] === 0 &&
    bytes[1] === MLS10 &&
    bytes[2] === 0 &&
    bytes[3] === WIRE_FORMAT_KEY_PACKAGE
  )
    return bytes.subarray(4)
  return bytes
}

/**
 * Reads and checks a key package (KP-001..KP-007).
 * @param nowSeconds the node's clock, for the lifetime (KP-005)
 * @throws KeyPackageError naming the rule and what was found
 */
export function readKeyPackage(input: Uint8Array, nowSeconds: bigint): KeyPackageInfo {
  if (input.length === 0) throw new KeyPackageError('KP-001', 'the key package is empty')
  if (input.length > MAX_KEY_PACKAGE_BYTES)
    throw new KeyPackageError('KP-001', `the key package is ${input.length} bytes, over ${MAX_KEY_PACKAGE_BYTES}`)
  let bytes = input
  let info: KeyPackageInfo
  try {
    info = parse(bytes, nowSeconds)
  } catch (e) {
    // The same bytes read as an MLSMessage wrapper, when that is what they are.
    const inner = unwrap(input)
    if (inner === input || !(e instanceof KeyPackageError) || e.rule !== 'KP-002') throw e
    bytes = inner
    info = parse(bytes, nowSeconds)
  }
  return info
}

function parse(bytes: Uint8Array, nowSeconds: bigint): KeyPackageInfo {
  const r = new Reader(bytes)
  const version = r.u16('version')
  if (version !== MLS10) throw new KeyPackageError('KP-003', `protocol version ${version} is not mls10 (1)`)
  const cipherSuite = r.u16('cipher_suite')
  r.vector('init_key')
  // LeafNode (§7.2)
  const leafStart = r.at
  r.vector('leaf_node.encryption_key')
  const signatureKey = r.vector('leaf_node.signature_key')
  const credentialType = r.u16('leaf_node.credential.credential_type')
  let identity: Uint8Array = new Uint8Array(0)
  if (credentialType === CREDENTIAL_BASIC) identity = r.vector('leaf_node.credential.identity')
  else if (credentialType === 2) r.vector('leaf_node.credential.certificates')
  else
    throw new KeyPackageError('KP-006', `credential type ${credentialType} is not basic (1); an installation needs one`)
  for (const part of ['versions', 'cipher_suites', 'extensions', 'proposals', 'credentials'])
    r.vector(`leaf_node.capabilities.${part}`)
  const source = r.u8('leaf_node.leaf_node_source')
  let notBefore = 0n
  let notAfter = 0n
  if (source === LEAF_SOURCE_KEY_PACKAGE) {
    notBefore = r.u64('leaf_node.lifetime.not_before')
    notAfter = r.u64('leaf_node.lifetime.not_after')
  } else throw new KeyPackageError('KP-005', `leaf node source ${source} is not key_package (1)`)
  r.vector('leaf_node.extensions')
  const leafTbsEnd = r.at
  const leafSignature = r.vector('leaf_node.signature')
  r.vector('extensions')
  const kpTbsEnd = r.at
  const signature = r.vector('signature')
  if (r.at !== bytes.length)
    throw new KeyPackageError('KP-002', `${bytes.length - r.at} bytes follow the key package's signature`)

  if (credentialType !== CREDENTIAL_BASIC || identity.length === 0)
    throw new KeyPackageError('KP-006', 'the basic credential has an empty identity')
  if (!ED25519_SUITES.has(cipherSuite))
    throw new KeyPackageError(
      'KP-004',
      `cipher suite 0x${cipherSuite.toString(16).padStart(4, '0')} does not sign with Ed25519 (suites 0x0001, 0x0003)`,
    )
  if (signatureKey.length !== 32)
    throw new KeyPackageError('KP-004', `the signature key is ${signatureKey.length} bytes, not an Ed25519 key (32)`)
  if (notBefore > notAfter)
    throw new KeyPackageError('KP-005', `the lifetime ends (${notAfter}) before it begins (${notBefore})`)
  if (notAfter < nowSeconds)
    throw new KeyPackageError('KP-005', `the lifetime ended at ${notAfter}, before the node's clock (${nowSeconds})`)
  if (!ed25519Verify(signatureKey, signContent('LeafNodeTBS', bytes.subarray(leafStart, leafTbsEnd)), leafSignature))
    throw new KeyPackageError('KP-007', "the leaf node's signature does not verify under its signature key")
  if (!ed25519Verify(signatureKey, signContent('KeyPackageTBS', bytes.subarray(0, kpTbsEnd)), signature))
    throw new KeyPackageError(
      'KP-007',
      "the key package's signature does not verify under the leaf node's signature key",
    )
  return {
    version,
    cipherSuite,
    installationKey: new Uint8Array(signatureKey),
    credentialIdentity: new Uint8Array(identity),
    notBefore,
    notAfter,
    keyPackage: new Uint8Array(bytes),
  }
}
