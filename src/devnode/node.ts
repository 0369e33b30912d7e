/**
 * One local node, assembled: store, heads, admission, HTTP server; and seeding. Used by
 * main.ts (the process) and by in-process tests.
 */
import { isDecoded } from '../core/decode/entry'
import { readLogs } from '../core/decode/logs'
import { decodeUpdate } from '../core/decode/update'
import type { SmartWalletVerifier } from '../core/verify/port'
import { Admission, NO_FRESHNESS, type AdmissionOptions, type ClaimPolicy, type FreshnessCheck } from './admission'
import type { PublishEvent } from './api'
import { demoUpdates } from './demo'
import { ApiError } from './errors'
import { Heads } from './heads'
import { NodeListener } from './listener'
import { KeyPackages } from './mls'
import type { HeadBlock } from './scw'
import { createNodeHandler } from './server'
import { Store } from './store'
import { SubscriptionHub } from './subscribe'
import { DEFAULT_TRAFFIC_CAPACITY, TrafficLog } from './traffic'

export interface LocalNodeOptions {
  readonly db: string
  readonly policy?: ClaimPolicy
  readonly smartWallets?: SmartWalletVerifier
  readonly freshness?: FreshnessCheck
  readonly maxBodyBytes?: number
  readonly now?: AdmissionOptions['now']
  readonly log?: (line: string) => void
  /** The chain's head block, for VerifySmartContractWalletSignatures without a block number. */
  readonly headBlock?: HeadBlock
  /** Write one line per call on `log` (`--log-requests`). */
  readonly logRequests?: boolean
  readonly maxSubscribers?: number
  readonly subscriberBacklog?: number
  readonly trafficCapacity?: number
}

export interface SeedResult {
  readonly stored: number
  readonly refused: { readonly index: number; readonly error: string }[]
  readonly skipped: boolean
}

export class LocalNode {
  readonly store: Store
  readonly heads: Heads
  readonly admission: Admission
  /** Live SubscribeEnvelopes streams. */
  readonly hub: SubscriptionHub
  /** The request log. */
  readonly traffic: TrafficLog
  /** HTTP/1.1 and cleartext HTTP/2 on one port. */
  readonly server: NodeListener
  private readonly log: (line: string) => void

  constructor(private readonly options: LocalNodeOptions) {
    this.log = options.log ?? (() => {})
    this.store = new Store(options.db)
    const sw = options.smartWallets ? { smartWallets: options.smartWallets } : {}
    this.heads = new Heads(this.store, sw)
    this.admission = new Admission(this.store, this.heads, { ...this.admissionOptions(), ...sw })
    this.hub = new SubscriptionHub(this.store, {
      ...(options.maxSubscribers !== undefined ? { maxSubscribers: options.maxSubscribers } : {}),
      ...(options.subscriberBacklog !== undefined ? { backlog: options.subscriberBacklog } : {}),
    })
    this.traffic = new TrafficLog(
      options.trafficCapacity ?? DEFAULT_TRAFFIC_CAPACITY,
      options.logRequests ? this.log : null,
    )
    this.server = new NodeListener(
      createNodeHandler({
        store: this.store,
        heads: this.heads,
        admission: this.admission,
        log: this.log,
        onPublish: (e) => this.onPublish(e),
        hub: this.hub,
        keyPackages: new KeyPackages(this.store, this.heads),
        scw: {
          freshness: options.freshness ?? NO_FRESHNESS,
          ...(options.smartWallets ? { smartWallets: options.smartWallets } : {}),
          ...(options.headBlock ? { headBlock: options.headBlock } : {}),
        },
        traffic: this.traffic,
        ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      }),
    )
  }

  private admissionOptions(): AdmissionOptions {
    const o = this.options
    return {
      ...(o.policy ? { policy: o.policy } : {}),
      ...(o.freshness ? { freshness: o.freshness } : {}),
      ...(o.now ? { now: o.now } : {}),
    }
  }

  private onPublish(e: PublishEvent): void {
    if ('stored' in e) {
      // Wakes the live streams (the update is committed: admission calls this after its transaction).
      this.hub.publish({
        sequenceId: e.stored.sequenceId,
        inboxId: e.inboxId,
        serverTimestampNs: e.stored.serverTimestampNs,
        bytes: e.stored.bytes,
      })
      this.log(`stored sequence id ${e.stored.sequenceId} for inbox ${e.inboxId}`)
    } else if (e.refused instanceof ApiError) {
      this.log(
        `refused ${e.refused.status} ${e.refused.code}${e.refused.rule ? ` ${e.refused.rule}` : ''}${e.inboxId ? ` for inbox ${e.inboxId}` : ''}: ${e.refused.message}`,
      )
    }
  }

  /** Listens on host:port (0 = any free port) and resolves with the bound address. */
  listen(host: string, port: number): Promise<{ host: string; port: number }> {
    return this.server.listen(host, port)
  }

  /**
   * Stores updates through admission, in order; an empty store only (a store that holds
   * anything is left as it is). The claim interval does not apply to a seed: it is the
   * operator's import, not a user's claims; every other check does.
   */
  async seed(updates: readonly Uint8Array[]): Promise<SeedResult> {
    if (this.store.updateCount() > 0n) return { stored: 0, refused: [], skipped: true }
    const admission = new Admission(this.store, this.heads, {
      ...this.admissionOptions(),
      ...(this.options.smartWallets ? { smartWallets: this.options.smartWallets } : {}),
      policy: { ...this.admission.policy, claimIntervalNs: 0n },
    })
    let stored = 0
    const refused: SeedResult['refused'] = []
    for (const [index, bytes] of updates.entries()) {
      try {
        await admission.admit(decodeUpdate(bytes))
        stored++
      } catch (e) {
        refused.push({
          index,
          error:
            e instanceof ApiError
              ? `${e.status} ${e.code}${e.rule ? ` ${e.rule}` : ''}: ${e.message}`
              : e instanceof Error
                ? e.message
                : String(e),
        })
      }
    }
    return { stored, refused, skipped: false }
  }

  /** Stops accepting, lets requests in flight finish (at most `graceMs`), closes the store. */
  async close(graceMs = 3000): Promise<void> {
    // Long-lived streams end first (each with its cursor), so the grace is for requests.
    this.hub.close()
    this.traffic.close()
    await this.server.close(graceMs)
    this.admission.close()
    this.store.close()
  }
}

/** The updates of `--seed`: `demo`, or a log file of any format the core reads, in global sequence id order. */
export async function seedUpdates(spec: string, readFile: (path: string) => Uint8Array): Promise<Uint8Array[]> {
  if (spec === 'demo') return demoUpdates()
  const logs = readLogs(readFile(spec), spec)
  const entries = logs
    .flatMap((l) => l.entries)
    .sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0))
  return entries.map((e) => (isDecoded(e.update) ? e.update.bytes : (e.update.bytes ?? new Uint8Array(0))))
}
