/**
 * The app's one TanStack QueryClient, in a chunk of its own: TanStack Query's core loads
 * with the first view that queries (./providers.tsx `QueryGate`, `loadQueryClient`), not
 * on the first screen. The key hash (./model/query-key.ts) keeps bigints and byte arrays,
 * which the features' keys hold.
 */
import { QueryClient } from '@tanstack/react-query'
import { hashQueryKey } from './model/query-key'

export const queryClient = new QueryClient({
  defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false, refetchOnWindowFocus: false } },
})
// What QueryClientProvider does on mount: focus and online events reach the client. The
// client lives as long as the page, so it is never unmounted.
queryClient.mount()
