/**
 * MLS key packages for the devnode tests (RFC 9420 §10), built and signed here with
 * node:crypto's Ed25519 from an installation's 32-byte seed, with an XMTP credential
 * (MlsCredential { inbox_id }) and the lifetime the test asks for.
 */
import { createPrivateKey, createPublicKey, sign } from 'node:crypto'
import { utf8 } from '../../src/crypto'

/** A TLS variable-length vector (§2.1.2): minimal varint length, then the bytes. */
function vec(b: Uint8Array): Uint8Array {
  const n = b.length
  const head = n < 64 ? [n] : [0x40 | (n >> 8), n & 0xff]
  return new Uint8Array([...head, ...b])
}

const u16 = (v: number) => [v >> 8, v & 0xff]
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(v)
  return [...b]
}

function keysOf(seed: Uint8Array) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed)])
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }
  return { privateKey, publicKey: new Uint8Array(Buffer.from(jwk.x, 'base64url')) }
}

/** The installation key (Ed25519 public key) of a seed. */
export const installationKeyOf = (seed: Uint8Array): Uint8Array => keysOf(seed).publicKey

export function keyPackage(
  seed: Uint8Array,
  inboxId: string,
  opts: { notBefore?: bigint; notAfter?: bigint; suite?: number } = {},
): Uint8Array {
  const { privateKey, publicKey } = keysOf(seed)
  const now = BigInt(Math.floor(Date.now() / 1000))
  const signWithLabel = (label: string, content: Uint8Array) =>
    new Uint8Array(sign(null, new Uint8Array([...vec(utf8(`MLS 1.0 ${label}`)), ...vec(content)]), privateKey))
  const credential = new Uint8Array([0x0a, inboxId.length, ...utf8(inboxId)])
  const leafTbs = new Uint8Array([
    ...vec(new Uint8Array(32).fill(7)), // encryption_key
    ...vec(publicKey), // signature_key: the installation key
    ...u16(1), // basic credential
    ...vec(credential),
    ...vec(new Uint8Array(u16(1))), // capabilities.versions
    ...vec(new Uint8Array(u16(opts.suite ?? 1))), // capabilities.cipher_suites
    ...vec(new Uint8Array()), // capabilities.extensions
    ...vec(new Uint8Array()), // capabilities.proposals
    ...vec(new Uint8Array(u16(1))), // capabilities.credentials
    1, // leaf_node_source: key_package
    ...u64(opts.notBefore ?? now - 3600n),
    ...u64(opts.notAfter ?? now + 90n * 86400n),
    ...vec(new Uint8Array()), // leaf extensions
  ])
  const tbs = new Uint8Array([
    ...u16(1), // mls10
    ...u16(opts.suite ?? 1),
    ...vec(new Uint8Array(32).fill(9)), // init_key
    ...leafTbs,
    ...vec(signWithLabel('LeafNodeTBS', leafTbs)),
    ...vec(new Uint8Array()), // extensions
  ])
  return new Uint8Array([...tbs, ...vec(signWithLabel('KeyPackageTBS', tbs))])
}
