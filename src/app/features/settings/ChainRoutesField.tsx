/**
 * The chain routes setting: add, edit and remove `eip155:<id>` → RPC URL, each checked
 * against its node's own chain id (a mismatch or an unreachable node is shown beside
 * the route). Saved in this browser; "Use the default" goes back to the routes the app
 * was started with (VITE_CHAIN_ROUTES).
 */
import { useState, type FormEvent } from 'react'
import { useChainRoutesContext } from '../../model/app-context'
import { defaultChainRoutes, parseRouteSetting, routeSpec, type RouteSetting } from './chain-routes'
import { DEMO_CHAIN } from './demo-chain'
import { useRouteCheck } from './route-check'
import { FormEnd } from '../../ui/FormEnd'
import { TextInput } from '../../ui/TextInput'

const ROW = { display: 'flex', flexWrap: 'wrap', gap: '0.4rem', alignItems: 'center', maxWidth: '100%' } as const
const INPUT = { maxWidth: '100%', minWidth: 0, boxSizing: 'border-box' } as const

/** The app's chain routes (the providers layer's); saving validates the list and returns its problems. */
export function ChainRoutesField() {
  const { routes, setRoutes: onChange } = useChainRoutesContext()
  const [editing, setEditing] = useState<number | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  const defaults = defaultChainRoutes()
  const isDefault =
    routes.length === defaults.length && routes.every((r, i) => routeSpec(r) === routeSpec(defaults[i]!))
  const save = (next: readonly RouteSetting[] | null): boolean => {
    const p = onChange(next)
    setProblems(p)
    return p.length === 0
  }
  return (
    <div className="chain-routes" role="group" aria-label="Chain routes setting">
      <p className="small">
        {routes.length === 0
          ? 'None: smart-wallet signatures stay pending.'
          : `In use: ${routes.map((r) => `eip155:${r.chainId}`).join(', ')}.`}
      </p>
      <p className="muted small">
        Smart contract wallet (erc_6492) signatures are checked by an <code>eth_call</code> on the chain they name,
        through the route set here (IDENT-060). A chain with no route, or one that cannot be reached, leaves the update
        pending, never rejected (IDENT-061). Each route is checked against the chain id its node answers.
      </p>
      {routes.length > 0 && (
        <ul aria-label="Chain routes" style={{ listStyle: 'none', padding: 0, margin: '4px 0' }}>
          {routes.map((r, i) =>
            editing === i ? (
              <li key={`edit-${i}`}>
                <RouteForm
                  initial={r}
                  label={`Edit the route for eip155:${r.chainId}`}
                  submitLabel="Save"
                  onSubmit={(next) => {
                    const list = routes.map((x, j) => (j === i ? next : x))
                    if (save(list)) setEditing(null)
                    return null
                  }}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={routeSpec(r)} style={ROW}>
                <code>eip155:{r.chainId}</code> → <code style={{ overflowWrap: 'anywhere' }}>{r.url}</code>{' '}
                <RouteStatus route={r} />
                <button
                  type="button"
                  onClick={() => setEditing(i)}
                  aria-label={`Edit the route for eip155:${r.chainId}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => save(routes.filter((_, j) => j !== i))}
                  aria-label={`Remove the route for eip155:${r.chainId}`}
                >
                  Remove
                </button>
              </li>
            ),
          )}
        </ul>
      )}
      <RouteForm
        label="Add a chain route"
        submitLabel="Add route"
        onSubmit={(next) => {
          if (routes.some((r) => r.chainId === next.chainId))
            return `there is a route for eip155:${next.chainId} already: edit or remove it`
          return save([...routes, next]) ? null : ''
        }}
      />
      <div style={ROW}>
        <button type="button" onClick={() => save(null)} disabled={isDefault}>
          Use the default routes
        </button>
        <span className="muted small">
          {defaults.length
            ? `default: ${defaults.map(routeSpec).join(', ')}`
            : 'no default route (the app was not started with a chain)'}
        </span>
      </div>
      {DEMO_CHAIN && (
        <p className="small" aria-label="Demo chain">
          Demo chain (<code>npm start</code>): eip155:{DEMO_CHAIN.chainId} at <code>{DEMO_CHAIN.rpcUrl}</code>. The
          smart-wallet demo inbox <code style={{ overflowWrap: 'anywhere' }}>{DEMO_CHAIN.inboxId}</code> (fetch it by
          inbox id under Open log… › From a node) is created by the deployed wallet{' '}
          <code>{DEMO_CHAIN.deployed.address}</code> and adds the counterfactual wallet{' '}
          <code>{DEMO_CHAIN.counterfactual.address}</code>.{' '}
          <strong>Their owners are demo keys, public by design: never fund these wallets.</strong>
        </p>
      )}
      {problems.length > 0 && (
        <p role="alert" className="bad">
          Not saved: {problems.join('; ')}
        </p>
      )}
    </div>
  )
}

function RouteForm({
  initial,
  label,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: RouteSetting
  label: string
  submitLabel: string
  /** Returns a problem to show, '' to show none but keep the fields, or null when done. */
  onSubmit: (route: RouteSetting) => string | null
  onCancel?: () => void
}) {
  const [chainId, setChainId] = useState(initial?.chainId ?? '')
  const [url, setUrl] = useState(initial?.url ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const r = parseRouteSetting(chainId, url)
    if ('problem' in r) {
      setProblem(r.problem)
      return
    }
    const p = onSubmit(r)
    setProblem(p || null)
    if (p === null && !initial) {
      setChainId('')
      setUrl('')
    }
  }
  return (
    <form onSubmit={submit} aria-label={label} style={{ ...ROW, margin: '4px 0' }}>
      <label>
        Chain id{' '}
        <TextInput
          value={chainId}
          onValue={setChainId}
          aria-label={`${label}: chain id`}
          placeholder="31337"
          size={10}
          inputMode="numeric"
          style={INPUT}
        />
      </label>
      <label>
        RPC URL{' '}
        <TextInput
          type="url"
          value={url}
          onValue={setUrl}
          aria-label={`${label}: RPC URL`}
          placeholder="http://127.0.0.1:8545"
          size={30}
          style={INPUT}
        />
      </label>
      <FormEnd submitLabel={submitLabel} onCancel={onCancel} problem={problem} />
    </form>
  )
}

function RouteStatus({ route }: { route: RouteSetting }) {
  const q = useRouteCheck(route)
  const text = q.isPending
    ? 'checking…'
    : q.data?.ok
      ? `node answers eip155:${q.data.chainId} (head block ${q.data.head})`
      : q.data
        ? q.data.reason
        : String(q.error)
  return (
    <>
      <span
        role="status"
        aria-label={`Status of the route for eip155:${route.chainId}`}
        className={`badge ${q.data?.ok ? 'ok' : q.data ? 'bad' : ''}`}
        style={{ whiteSpace: 'normal' }}
      >
        {text}
      </span>
      <button
        type="button"
        onClick={() => void q.refetch()}
        disabled={q.isFetching}
        aria-label={`Check the route for eip155:${route.chainId} again`}
      >
        Check
      </button>
    </>
  )
}
