/**
 * The hook over the node service's publish call (./publish.ts holds the call itself, which
 * loads with the first publish): the answer stays until the next publish or reset. Plain
 * React state, not a TanStack mutation: the Open panel's publish form is on the first
 * screen, and TanStack Query's core loads with the first view that queries
 * (src/app/providers.tsx). The call never throws: a failure is an answer.
 */
import { useCallback, useRef, useState } from 'react'
import { type PublishAnswer, useNodeService } from '../../model/node-service'
import type { PublishOptions } from './publish'

export function usePublish() {
  const { mutationFn } = useNodeService().publish
  const [answer, setAnswer] = useState<PublishAnswer | null>(null)
  const [busy, setBusy] = useState(false)
  // Only the latest publish (and none after a reset) sets the answer.
  const latest = useRef(0)
  const publish = useCallback(
    async (bytes: Uint8Array, options: Omit<PublishOptions, 'attempts'> = {}): Promise<PublishAnswer> => {
      const n = ++latest.current
      setAnswer(null)
      setBusy(true)
      try {
        const a = await mutationFn({ bytes, ...options })
        if (n === latest.current) setAnswer(a)
        return a
      } finally {
        if (n === latest.current) setBusy(false)
      }
    },
    [mutationFn],
  )
  const reset = useCallback(() => {
    latest.current++
    setAnswer(null)
    setBusy(false)
  }, [])
  return { publish, answer, busy, reset }
}
