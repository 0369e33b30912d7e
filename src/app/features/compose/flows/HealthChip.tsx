import { LAST_ENTRIES } from './log-limit'

/** The header's one-line health of the open inbox: log entries used against the limit; opens the health view. */
export function HealthChip({ entries, limit, onOpen }: { entries: number; limit: number; onOpen: () => void }) {
  const left = limit - entries
  const tone = left <= 0 ? 'bad' : left <= LAST_ENTRIES ? 'warn' : 'ok'
  return (
    <button
      type="button"
      className={`link small health-chip tone-${tone}`}
      onClick={onOpen}
      title="Inbox health: entries, installations, handles, recovery"
    >
      {left <= 0 ? 'log full: ' : ''}
      {entries.toLocaleString('en')} of {limit.toLocaleString('en')} log entries
    </button>
  )
}
