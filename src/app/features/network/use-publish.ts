/**
 * The hook over the node service's publish mutation (./publish.ts holds the call itself,
 * which loads with the first publish): the answer stays until the next publish or reset.
 */
import { useMutation } from '@tanstack/react-query'
import { useCallback } from 'react'
import { type PublishAnswer, useNodeService } from '../../model/node-service'
import type { PublishOptions } from './publish'

export function usePublish() {
  const m = useMutation(useNodeService().publish)
  const { mutateAsync } = m
  const publish = useCallback(
    (bytes: Uint8Array, options: Omit<PublishOptions, 'attempts'> = {}) => mutateAsync({ bytes, ...options }),
    [mutateAsync],
  )
  return { publish, answer: (m.data as PublishAnswer | undefined) ?? null, busy: m.isPending, reset: m.reset }
}
