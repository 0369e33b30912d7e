import { Component, type ReactNode } from 'react'
import { failureShown } from './lazy-again'
import { PanelError } from './PanelError'

interface Props {
  /** What this boundary guards, for the message ("the state panel"). */
  readonly label: string
  readonly children: ReactNode
  /** Changing this resets a failed boundary (e.g. the selected step). */
  readonly resetKey?: unknown
  /** What the failure is shown in (a drawer's heading and Close button); the failure alone without. */
  readonly frame?: (failure: ReactNode) => ReactNode
}

interface State {
  readonly error: Error | null
  readonly key: unknown
}

/** Keeps a failing panel from taking the app down: it shows what failed and offers a retry. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null
  }

  override componentDidCatch(error: unknown): void {
    console.error(`inspector: ${this.props.label} failed`, error)
    // The failure is on screen: a lazy view whose load failed loads anew when next rendered
    // (Try again, a new reset key, the view opened again: ./lazy-again.tsx).
    failureShown()
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children
    const failure = (
      <PanelError
        title={`${this.props.label} could not be shown.`}
        message={this.state.error.message}
        onRetry={() => this.setState({ error: null })}
      />
    )
    return this.props.frame ? this.props.frame(failure) : failure
  }
}
