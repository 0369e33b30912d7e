/**
 * The MLS service calls of registration (xmtp.mls.api.v1.MlsApi):
 *
 *   UploadKeyPackage   the key package is read and checked (./keypackage.ts, KP-001..007)
 *                      and stored under its leaf node's signature key, the installation
 *                      key, replacing the one before; refused when the installation was
 *                      revoked from the inbox its credential names
 *   FetchKeyPackages   per requested installation key, in order, its stored key package,
 *                      or an empty entry when none is stored or the installation is revoked
 *
 * An installation is revoked when the inbox logs the node holds once made it a member
 * and no inbox's head state still has it (section 9's members index and the heads). A
 * package uploaded before the registering publish (the client's order) is served.
 */
import { create, toBinary } from '@bufbuild/protobuf'
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { Code, ConnectError } from '@connectrpc/connect'
import { memberKey } from '../core/types'
import { bytesToHex } from '../crypto/bytes'
import {
  FetchKeyPackagesRequestSchema,
  FetchKeyPackagesResponseSchema,
  UploadKeyPackageRequestSchema,
  UploadKeyPackageResponseSchema,
} from '../gen/mls/api/v1/mls_pb'
import { decodeRequest } from './codec'
import type { Heads } from './heads'
import { KeyPackageError, readKeyPackage } from './keypackage'
import type { Store } from './store'
import { subject, type CallNote } from './traffic'

/** At most this many installation keys per fetch. */
const MAX_FETCH_KEYS = 1000

/** The inbox id an XMTP credential identity names (MlsCredential field 1), or null. */
export function credentialInboxId(identity: Uint8Array): string | null {
  try {
    const r = new BinaryReader(identity)
    while (r.pos < r.len) {
      const [field, wire] = r.tag()
      if (field === 1 && wire === WireType.LengthDelimited) {
        const id = r.string()
        return /^[0-9a-f]{64}$/.test(id) ? id : null
      }
      r.skip(wire)
    }
  } catch {
    return null
  }
  return null
}

export class KeyPackages {
  constructor(
    private readonly store: Store,
    private readonly heads: Heads,
    private readonly nowNs: () => bigint = () => BigInt(Date.now()) * 1_000_000n,
  ) {}

  /** True when the logs made the installation a member and no head state still has it. */
  async revoked(installationKeyHex: string): Promise<boolean> {
    const key = memberKey({ kind: 'installation', text: installationKeyHex })
    const inboxes = this.store.inboxesOfMember(key)
    if (inboxes.length === 0) return false
    for (const inbox of inboxes) {
      const head = await this.heads.get(inbox)
      if (head.state?.members.has(key)) return false
    }
    return true
  }

  /** UploadKeyPackage. @throws ConnectError INVALID_ARGUMENT (KP-00x), FAILED_PRECONDITION (revoked) */
  async upload(body: Uint8Array, note: CallNote): Promise<Uint8Array> {
    const req = decodeRequest(UploadKeyPackageRequestSchema, 'binary', body)
    const bytes = req.keyPackage?.keyPackageTlsSerialized ?? new Uint8Array(0)
    let info: ReturnType<typeof readKeyPackage>
    try {
      info = readKeyPackage(bytes, this.nowNs() / 1_000_000_000n)
    } catch (e) {
      if (e instanceof KeyPackageError) {
        note.rule = e.rule
        throw new ConnectError(`the key package is refused: ${e.message}`, Code.InvalidArgument)
      }
      throw e
    }
    const installation = bytesToHex(info.installationKey)
    note.subject = subject('installation', installation)
    const inboxId = credentialInboxId(info.credentialIdentity)
    if (await this.revoked(installation)) {
      throw new ConnectError(
        `installation ${installation} was revoked${inboxId ? ` from inbox ${inboxId}` : ''}; its key packages are not accepted`,
        Code.FailedPrecondition,
      )
    }
    this.store.putKeyPackage(info.installationKey, inboxId, info.keyPackage, this.nowNs())
    return toBinary(UploadKeyPackageResponseSchema, create(UploadKeyPackageResponseSchema))
  }

  /** FetchKeyPackages: one entry per key, in order; empty when none is served. */
  async fetch(body: Uint8Array, note: CallNote): Promise<Uint8Array> {
    const req = decodeRequest(FetchKeyPackagesRequestSchema, 'binary', body)
    if (req.installationKeys.length > MAX_FETCH_KEYS) {
      throw new ConnectError(
        `${req.installationKeys.length} installation keys asked; at most ${MAX_FETCH_KEYS} per call`,
        Code.InvalidArgument,
      )
    }
    if (req.installationKeys[0]) note.subject = subject('installation', bytesToHex(req.installationKeys[0]))
    const keyPackages = []
    for (const key of req.installationKeys) {
      const stored = key.length === 32 ? this.store.keyPackage(key) : null
      const served = stored !== null && !(await this.revoked(bytesToHex(key)))
      keyPackages.push({ keyPackageTlsSerialized: served ? stored.keyPackage : new Uint8Array(0) })
    }
    return toBinary(FetchKeyPackagesResponseSchema, create(FetchKeyPackagesResponseSchema, { keyPackages }))
  }
}
