import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNodeService } from '../../../model/node-service'
import type { FlowProps } from './flow-props'

/**
 * Whether the node holds a newer state of the inbox than the open log: asked when a task
 * opens (the node service's QueryNewest), again right before any signer is asked; a
 * re-fetch replaces the open log (the task's dry run then runs on the newest state) and
 * says what changed. An unreachable node does not block signing; publishing says so.
 */
export function useFreshness(p: FlowProps) {
  const { refetch, state, logEntries } = p
  const inboxId = state.inboxId
  const node = useNodeService()
  const client = useQueryClient()
  const asked = useQuery(node.newest(inboxId))
  const newest = asked.isSuccess ? asked.data : null
  const [checking, setChecking] = useState(false)
  const [refetching, setRefetching] = useState(false)
  const [refetched, setRefetched] = useState<{ before: number } | { error: string } | null>(null)
  const recheck = async (): Promise<boolean> => {
    setChecking(true)
    try {
      const n = await client.fetchQuery(node.newest(inboxId)).catch(() => null)
      return n === null || n <= state.sequenceId
    } finally {
      setChecking(false)
    }
  }
  const doRefetch = async () => {
    setRefetching(true)
    setRefetched(null)
    const before = logEntries
    try {
      await refetch(inboxId)
      setRefetched({ before })
    } catch (e) {
      setRefetched({ error: e instanceof Error ? e.message : String(e) })
    } finally {
      setRefetching(false)
    }
  }
  const note =
    refetched === null
      ? null
      : 'error' in refetched
        ? `Could not re-fetch: ${refetched.error}`
        : `Re-fetched from ${node.url}: ${logEntries - refetched.before} new update${logEntries - refetched.before === 1 ? '' : 's'}; the head is now sequence id ${state.sequenceId}, and the dry run below judges it.`
  return { newest, checking, recheck, refetch: doRefetch, refetching, note }
}
