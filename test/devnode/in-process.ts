/**
 * Local nodes run in process (the LocalNode main.ts runs, without the HTTP listener), for
 * the tests that need what the real process cannot take: a double, a held promise, a count.
 */
import { fromBinary } from '@bufbuild/protobuf'
import { afterAll } from 'vitest'
import { NodeApi } from '../../src/devnode/api'
import { ApiError } from '../../src/devnode/errors'
import type { LocalNode } from '../../src/devnode/node'
import { PublishIdentityUpdateResponseSchema } from '../../src/gen/identity/api/v1/identity_pb'
import { frameField1 } from '../../src/network/client'
import { tempDir } from './harness'

/**
 * One test file's node scratch: a temp dir whose `db()` names a fresh SQLite file; every node
 * passed to `keep` is closed, and the dir removed, after the file's tests.
 */
export function nodeScratch(prefix: string) {
  const tmp = tempDir(prefix)
  const nodes: LocalNode[] = []
  let files = 0
  afterAll(async () => {
    for (const node of nodes) await node.close(0).catch(() => {})
    tmp.remove()
  })
  return {
    path: tmp.path,
    db: (): string => tmp.path(`n${++files}.db`),
    keep<N extends LocalNode>(node: N): N {
      nodes.push(node)
      return node
    },
  }
}

/** The API of a node in process, judging with its own admission unless given another. */
export function apiOf(node: LocalNode, admission = node.admission): NodeApi {
  return new NodeApi({ store: node.store, heads: node.heads, admission })
}

/** The publish endpoint (binary) called in process: its answer, or the ApiError it refused with. */
export function publishTo(api: NodeApi): (bytes: Uint8Array) => Promise<Uint8Array | string | ApiError> {
  return async (bytes) => {
    try {
      return await api.handle('publish', 'binary', frameField1(bytes))
    } catch (e) {
      if (e instanceof ApiError) return e
      throw e
    }
  }
}

/** publishTo, read: the receipt's sequence id, or the ApiError. */
export function publishForSequenceId(api: NodeApi): (bytes: Uint8Array) => Promise<bigint | ApiError> {
  const publish = publishTo(api)
  return async (bytes) => {
    const out = await publish(bytes)
    return out instanceof ApiError ? out : fromBinary(PublishIdentityUpdateResponseSchema, out as Uint8Array).sequenceId
  }
}
