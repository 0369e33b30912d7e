/**
 * The chain evidence of one erc_6492 signature, on demand (an expandable section):
 * the chain, the block with its time and age before the head, the route used, whether
 * the account had code at that block (deployed or counterfactual), the ERC-6492
 * wrapper taken apart with copy buttons, the exact eth_call JSON-RPC request and a curl
 * line that reproduce the verdict, and the verdict. An unreachable chain shows the
 * reason and a retry (IDENT-061).
 */
import { useState } from 'react'
import type { SignatureCheck } from '../../../../core/trace'
import { type ChainRouteSetting, useChainRoutesContext } from '../../../model/app-context'
import { QueryGate } from '../../../providers'
import { CopyButton } from '../../../ui/CopyButton'
import { Id } from '../../../ui/Id'
import { ageText, evidenceRequestOf, routeFor, useEvidence, type EvidenceRequest } from '../evidence-query'

function ChainEvidence({ check, routes }: { check: SignatureCheck; routes: readonly ChainRouteSetting[] }) {
  const req = evidenceRequestOf(check)
  const [open, setOpen] = useState(false)
  if (!req) return null
  return (
    <details className="evidence chain-evidence" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Chain evidence</summary>
      {open && <EvidenceBody req={req} routeUrl={routeFor(routes, req.accountId)} />}
    </details>
  )
}

/**
 * The Chain tab: every erc_6492 signature of the step in view, each with its chain
 * evidence (read on demand, when its section is opened; each read is a query, so the tab
 * is inside QueryGate).
 */
export function ChainTab(props: { checks: readonly SignatureCheck[]; scope: string }) {
  return (
    <QueryGate view="The chain evidence">
      <ChainTabBody {...props} />
    </QueryGate>
  )
}

function ChainTabBody({ checks, scope }: { checks: readonly SignatureCheck[]; scope: string }) {
  // The app's chain routes (the providers layer's): the route each signature's chain is read through.
  const { routes } = useChainRoutesContext()
  const sw = checks.map((c, n) => [c, n] as const).filter(([c]) => c.kind === 'erc_6492')
  return (
    <section className="panel chain" aria-labelledby="chain-title">
      <h2 id="chain-title">Chain evidence</h2>
      <p className="caption">
        {scope} Each smart contract wallet signature (erc_6492) is judged by an eth_call on its chain at its block
        (IDENT-060); open a section to read that chain now.
      </p>
      {sw.map(([c, n]) => (
        <article
          key={`${c.evidence['account id'] ?? ''}:${c.evidence.block ?? ''}:${c.replayKey ?? n}`}
          className={`sig verdict-${c.verdict}`}
          aria-label={`Chain evidence of the ${c.role.replaceAll('_', ' ')} of action ${c.actionIndex}: ${c.verdict}`}
        >
          <header>
            <span className={`badge v-${c.verdict}`}>{c.verdict}</span> <strong>{c.role.replaceAll('_', ' ')}</strong>{' '}
            <span className="muted">action {c.actionIndex}</span>{' '}
            {c.signer ? <Id text={c.signer.text} what="signer" /> : <span className="muted">no signer derived</span>}
          </header>
          <ChainEvidence check={c} routes={routes} />
        </article>
      ))}
    </section>
  )
}

function Hex({ value, what }: { value: string; what: string }) {
  return (
    <>
      <span className="hex">{value}</span> <CopyButton text={value} what={what} />
    </>
  )
}

function EvidenceBody({ req, routeUrl }: { req: EvidenceRequest; routeUrl: string | null }) {
  const q = useEvidence(req, routeUrl, true)
  if (q.isPending) return <p role="status">Reading the chain…</p>
  if (q.isError) {
    return (
      <p role="alert">
        The evidence could not be read: {q.error instanceof Error ? q.error.message : String(q.error)}{' '}
        <button type="button" onClick={() => void q.refetch()}>
          Retry
        </button>
      </p>
    )
  }
  const { evidence: ev, head, ageSeconds } = q.data
  const request = ev.ethCall ? JSON.stringify(ev.ethCall, null, 2) : null
  return (
    <div aria-label="Chain evidence" role="group" aria-busy={q.isFetching}>
      {ev.status !== 'ok' && (
        <p role="alert" className={ev.status === 'malformed' ? 'bad' : 'warn'}>
          {ev.status === 'malformed' ? 'Malformed: ' : 'Unreachable (IDENT-061, the update stays pending): '}
          <span className="reason">{ev.reason}</span>
        </p>
      )}
      <dl className="kv">
        <dt>chain</dt>
        <dd className="mono">{ev.chainId === null ? 'none (the account id is malformed)' : `eip155:${ev.chainId}`}</dd>
        <dt>block</dt>
        <dd className="mono">
          {ev.blockNumber.toString()}
          {ev.blockTime !== null && ` · ${ev.blockTime}`}
          {ev.blockTimestamp !== null && <span className="muted"> (timestamp {ev.blockTimestamp.toString()})</span>}
        </dd>
        <dt>age</dt>
        <dd>
          {ageSeconds !== null && head ? (
            `${ageText(ageSeconds)} before the head (block ${head.number}); the node admits a new update only within 1800 s (IDENT-062)`
          ) : (
            <span className="muted">unknown</span>
          )}
        </dd>
        <dt>route</dt>
        <dd className="mono">
          {ev.routeUrl ?? (
            <span className="muted">
              none: add a chain route for eip155:{ev.chainId?.toString() ?? '?'} in the settings
            </span>
          )}
        </dd>
        <dt>account</dt>
        <dd className="mono">{ev.account ?? ev.accountId}</dd>
        <dt>code at the block</dt>
        <dd>
          {ev.hasCode === null ? (
            <span className="muted">unknown</span>
          ) : ev.hasCode ? (
            `deployed: ${ev.codeSize} bytes of code (ERC-1271 isValidSignature is called directly)`
          ) : (
            'none: counterfactual (the ERC-6492 factory deploys it inside the call, nothing persists)'
          )}
        </dd>
        <dt>ERC-6492 wrapper</dt>
        <dd>
          {ev.wrapper ? (
            <dl className="kv">
              <dt>factory</dt>
              <dd>
                <Hex value={ev.wrapper.factory} what="factory address" />
              </dd>
              <dt>factoryData</dt>
              <dd>
                <Hex value={ev.wrapper.factoryData} what="factory calldata" />
              </dd>
              <dt>inner signature</dt>
              <dd>
                <Hex value={ev.wrapper.innerSignature} what="inner signature" />
              </dd>
            </dl>
          ) : ev.wrapperError ? (
            <span className="bad">{ev.wrapperError}</span>
          ) : (
            <span>
              not wrapped: the signature goes to isValidSignature as is <Hex value={ev.signatureHex} what="signature" />
            </span>
          )}
        </dd>
        <dt>personal-message hash</dt>
        <dd>
          <Hex value={ev.hash} what="personal-message hash" />
        </dd>
        <dt>verdict</dt>
        <dd>
          {ev.verdict ? (
            <span className={`badge v-${ev.verdict}`}>{ev.verdict}</span>
          ) : (
            <span className="badge v-unreachable">no verdict</span>
          )}
          {ev.callResult !== null && <span className="muted mono"> eth_call answered {ev.callResult}</span>}
        </dd>
      </dl>
      {request && (
        <>
          <p className="caption">
            The exact eth_call (a deployless call of the ERC-6492 validator, gas-capped){' '}
            <CopyButton text={request} what="eth_call request" />
          </p>
          <WrappedText label="eth_call request" text={request} maxHeight="12em" />
        </>
      )}
      {ev.curl && (
        <>
          <p className="caption">
            Reproduce it <CopyButton text={ev.curl} what="curl command" />
          </p>
          <WrappedText label="curl command" text={ev.curl} maxHeight="8em" />
        </>
      )}
      <button type="button" onClick={() => void q.refetch()} disabled={q.isFetching}>
        {ev.status === 'ok' ? 'Read again' : 'Retry'}
      </button>
    </div>
  )
}

/** A long machine text, wrapped anywhere and scrolled past `maxHeight`, reachable by keyboard. */
function WrappedText({ label, text, maxHeight }: { label: string; text: string; maxHeight: string }) {
  return (
    <pre
      className="hex"
      tabIndex={0}
      aria-label={label}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight, overflow: 'auto' }}
    >
      {text}
    </pre>
  )
}
