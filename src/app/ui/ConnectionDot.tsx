/** A connection's state as a coloured dot beside its text (which says the same in words). */
import './connection-dot.css'

export type DotState = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'off'

export function ConnectionDot({ state }: { readonly state: DotState }) {
  return <span className={`connection-dot dot-${state}`} aria-hidden="true" />
}
