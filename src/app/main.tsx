import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App'
import { wagmiConfig } from './features/signers/wagmi'
import { applyTheme, readTheme } from './features/settings/theme'
import { ErrorBoundary } from './ui/ErrorBoundary'
import './styles.css'

applyTheme(readTheme())

// wagmi's hooks (the signers feature: wallets) run on TanStack Query: WagmiProvider sits
// outside this QueryClientProvider. The network profiles (node status) keep their own QueryClient inside.
const walletQueryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary label="The inspector">
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={walletQueryClient}>
          <App />
        </QueryClientProvider>
      </WagmiProvider>
    </ErrorBoundary>
  </StrictMode>,
)
