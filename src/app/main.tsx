import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { applyTheme, readTheme } from './features/settings/theme'
import { AppProviders } from './providers'
import { ErrorBoundary } from './ui/ErrorBoundary'
import './styles.css'

applyTheme(readTheme())

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary label="The inspector">
      <AppProviders>
        <App />
      </AppProviders>
    </ErrorBoundary>
  </StrictMode>,
)
