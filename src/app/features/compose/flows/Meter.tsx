export function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const tone = used >= limit ? 'bad' : limit - used <= 3 ? 'warn' : 'ok'
  return (
    <div className={`meter tone-${tone}`}>
      <span>{label}</span>
      <meter aria-label={label} min={0} max={Math.max(1, limit)} value={Math.min(used, limit)} />
      <strong>
        {used.toLocaleString('en')} of {limit.toLocaleString('en')}
      </strong>
    </div>
  )
}
