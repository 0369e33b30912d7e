/**
 * The four endpoints of the local node, independent of HTTP: request body in, response
 * body out, or an ApiError (../shared/contracts/cli.md, "The local node").
 *
 *   publish-identity-update   admission (./admission.ts), the receipt is the sequence id
 *   get-identity-updates      per request, the inbox's updates after sequence_id (0 = all),
 *                             each with its exact stored bytes; an unknown inbox → no updates
 *   get-inbox-ids             section 9 for Ethereum and passkey identifiers; API-299 for
 *                             handles (ASCII letters lowercased, old handles included)
 *   query-newest              each inbox's newest sequence id; inboxes with no log left out
 */
import { create } from '@bufbuild/protobuf'
import {
  GetIdentityUpdatesRequestSchema,
  GetInboxIdsRequestSchema,
  GetInboxIdsResponseSchema,
  PublishIdentityUpdateResponseSchema,
  QueryNewestRequestSchema,
  QueryNewestResponseSchema,
} from '../gen/identity/api/v1/identity_pb'
import { encodeGetIdentityUpdatesResponse, toGatewayJson, type ResponseLog } from '../core/encode/update'
import { lowercaseAscii } from '../core/handles'
import { resolveIdentifier, type Resolution } from '../core/resolve'
import { IdentifierKindValue, memberKey, type MemberId } from '../core/types'
import { encodeMessage, NODE_PATHS } from '../network/client'
import type { Admission, Admitted } from './admission'
import { decodePublish, decodeRequest, publishedUpdateBytes, type Encoding } from './codec'
import type { Heads } from './heads'
import type { Store } from './store'
import { MAX_UPDATE_BYTES, subject, type CallNote } from './traffic'

/** The contract's paths: one table, shared with the client (src/network). */
const PATHS = NODE_PATHS

export type Endpoint = keyof typeof PATHS

export const ENDPOINT_OF_PATH: ReadonlyMap<string, Endpoint> = new Map(
  Object.entries(PATHS).map(([k, v]) => [v, k as Endpoint]),
)

/** What the node tells its operator about a publish. */
export type PublishEvent =
  | { readonly stored: Admitted; readonly inboxId: string }
  | { readonly refused: Error; readonly inboxId: string | null }

export interface ApiDeps {
  readonly store: Store
  readonly heads: Heads
  readonly admission: Admission
  readonly onPublish?: (e: PublishEvent) => void
}

/** The member an Ethereum or passkey lookup names, or null for another kind. */
function lookupMember(identifier: string, kind: number): MemberId | null {
  if (kind === IdentifierKindValue.UNSPECIFIED || kind === IdentifierKindValue.ETHEREUM) {
    // Hex is case-insensitive: a checksummed address names the same account.
    return { kind: 'ethereum', text: identifier.toLowerCase() }
  }
  if (kind === IdentifierKindValue.PASSKEY)
    return { kind: 'passkey', text: identifier.toLowerCase().replace(/^0x/, '') }
  return null
}

export class NodeApi {
  constructor(private readonly deps: ApiDeps) {}

  /** Serves one call; `note` hears its subject (and a publish's update) for the traffic log. */
  async handle(endpoint: Endpoint, enc: Encoding, body: Uint8Array, note: CallNote = {}): Promise<Uint8Array | string> {
    switch (endpoint) {
      case 'publish':
        return this.publish(enc, body, note)
      case 'getIdentityUpdates':
        return this.getIdentityUpdates(enc, body, note)
      case 'getInboxIds':
        return this.getInboxIds(enc, body, note)
      case 'queryNewest':
        return this.queryNewest(enc, body, note)
    }
  }

  private async publish(enc: Encoding, body: Uint8Array, note: CallNote): Promise<Uint8Array | string> {
    let inboxId: string | null = null
    const bytes = receivedUpdate(enc, body)
    note.update = { inboxId: '', sequenceId: null, bytes }
    try {
      const stored = await this.deps.admission.admitBody(enc, body, (id) => {
        inboxId = id
        note.subject = subject('inbox', id)
        note.update = { inboxId: id, sequenceId: null, bytes }
      })
      note.update = { inboxId: stored.state.inboxId, sequenceId: stored.sequenceId, bytes }
      this.deps.onPublish?.({ stored, inboxId: stored.state.inboxId })
      return encodeMessage(
        PublishIdentityUpdateResponseSchema,
        enc,
        create(PublishIdentityUpdateResponseSchema, { sequenceId: stored.sequenceId }),
      )
    } catch (e) {
      if (e instanceof Error) this.deps.onPublish?.({ refused: e, inboxId })
      throw e
    }
  }

  private getIdentityUpdates(enc: Encoding, body: Uint8Array, note: CallNote): Uint8Array | string {
    const req = decodeRequest(GetIdentityUpdatesRequestSchema, enc, body)
    note.subject = firstOf(
      'inbox',
      req.requests.map((r) => r.inboxId),
    )
    const logs: ResponseLog[] = req.requests.map((r) => ({
      inboxId: r.inboxId,
      updates: this.deps.store.updatesAfter(r.inboxId, r.sequenceId),
    }))
    // Binary splices each stored update in byte for byte; JSON is the proto3 JSON mapping.
    return enc === 'binary' ? encodeGetIdentityUpdatesResponse(logs) : JSON.stringify(toGatewayJson(logs))
  }

  /** Section 9: the live association with the highest sequence id among the inboxes the identifier was ever in. */
  async resolve(id: MemberId): Promise<Resolution> {
    const inboxes = this.deps.store.inboxesOfMember(memberKey(id))
    // A head whose stored log waits for a chain (pending) answers from the state before
    // that update: the lookup is a hint that every client checks (IDENT-071, IDENT-085).
    const heads = await Promise.all(inboxes.map(async (i) => (await this.deps.heads.get(i)).state))
    return resolveIdentifier(id, heads)
  }

  /** API-299: the inbox whose log claimed the handle (old handles included); the first claimer if several. */
  resolveHandle(identifier: string): string | null {
    return this.deps.store.claimersOf(lowercaseAscii(identifier))[0]?.inboxId ?? null
  }

  private async getInboxIds(enc: Encoding, body: Uint8Array, note: CallNote): Promise<Uint8Array | string> {
    const req = decodeRequest(GetInboxIdsRequestSchema, enc, body)
    note.subject = firstOf(
      'identifier',
      req.requests.map((r) => r.identifier),
    )
    const responses = await Promise.all(
      req.requests.map(async (r) => {
        const kind = r.identifierKind as number
        let inboxId: string | null = null
        if (kind === IdentifierKindValue.HANDLE) inboxId = this.resolveHandle(r.identifier)
        else {
          const member = lookupMember(r.identifier, kind)
          if (member) inboxId = (await this.resolve(member)).inboxId
        }
        return { identifier: r.identifier, identifierKind: r.identifierKind, ...(inboxId === null ? {} : { inboxId }) }
      }),
    )
    return encodeMessage(GetInboxIdsResponseSchema, enc, create(GetInboxIdsResponseSchema, { responses }))
  }

  private queryNewest(enc: Encoding, body: Uint8Array, note: CallNote): Uint8Array | string {
    const req = decodeRequest(QueryNewestRequestSchema, enc, body)
    note.subject = firstOf('inbox', req.inboxIds)
    const results: { inboxId: string; sequenceId: bigint }[] = []
    for (const inboxId of req.inboxIds) {
      const s = this.deps.store.newestSequenceId(inboxId)
      if (s !== null) results.push({ inboxId, sequenceId: s })
    }
    return encodeMessage(QueryNewestResponseSchema, enc, create(QueryNewestResponseSchema, { results }))
  }
}

/** The first value a request names, with how many more it names. */
function firstOf(kind: 'inbox' | 'identifier', values: readonly string[]): CallNote['subject'] {
  if (values.length === 0) return null
  return subject(kind, values.length === 1 ? values[0]! : `${values[0]} (+${values.length - 1} more)`)
}

/**
 * A publish's IdentityUpdate bytes for the traffic log: in binary exactly as received;
 * in JSON, which carries no bytes, the canonical encoding the node would store (for a
 * body up to four times the log's bound; null when it cannot be read, or is larger).
 */
function receivedUpdate(enc: Encoding, body: Uint8Array): Uint8Array | null {
  try {
    if (enc === 'binary') return publishedUpdateBytes(body)
    return body.length <= 4 * MAX_UPDATE_BYTES ? decodePublish(enc, body).bytes : null
  } catch {
    return null
  }
}
