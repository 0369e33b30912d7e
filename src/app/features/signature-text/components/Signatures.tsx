import type { SignatureCheck } from '../../../../core/trace'
import { partKey, samePart, useLinked } from '../../../model/linked'
import { CopyButton } from '../../../ui/CopyButton'
import { linkHandlers } from '../../../ui/Linked'
import { Id } from '../../../ui/Id'
import { chainText } from '../../../ui/format'
import { useMemo } from 'react'
import { useSettled } from '../../../ui/useSettled'
import { evidenceRows, needsPrehash, prehashHex, replayKeyShort } from '../evidence-rows'

const KIND_NAME: Record<SignatureCheck['kind'], string> = {
  erc_191: 'erc_191 (EIP-191 personal_sign)',
  erc_6492: 'erc_6492 (smart contract wallet)',
  installation_key: 'installation_key (Ed25519ph)',
  passkey: 'passkey (WebAuthn P-256)',
}

/**
 * Each signature: kind, signer derived, verdict, replay key, and what was hashed or
 * checked; an erc_6492 signature's chain evidence is in the Chain tab (`onChain` opens it).
 */
export function Signatures({
  checks,
  scope,
  text = null,
  onChain,
}: {
  checks: readonly SignatureCheck[]
  scope: string
  /** The update's signature text: an installation key's Ed25519ph prehash is derived from it. */
  text?: string | null
  /** Opens the chain evidence of the erc_6492 signatures. */
  onChain?: () => void
}) {
  const linked = useLinked()
  // The Ed25519ph prehash of the text, computed once per text (null until known).
  const prehashOf = needsPrehash(checks, text) ? text : null
  const prehashed = useSettled(useMemo(() => (prehashOf === null ? null : prehashHex(prehashOf)), [prehashOf]))
  const prehash = prehashed === null ? null : prehashed.ok ? prehashed.value : 'could not be computed'
  return (
    <section className="panel sigs" aria-labelledby="sigs-title" {...linkHandlers(linked)}>
      <h2 id="sigs-title">Signatures</h2>
      <p className="caption">{scope}</p>
      {checks.length === 0 && <p className="empty">No signature.</p>}
      {checks.map((c, n) => (
        <article
          key={n}
          className={`sig verdict-${c.verdict}${samePart(linked.hover, { kind: 'action', index: c.actionIndex }) ? ' linked' : ''}`}
          data-part={partKey({ kind: 'action', index: c.actionIndex })}
          aria-label={`Signature ${c.role.replaceAll('_', ' ')} of action ${c.actionIndex}: ${c.verdict}`}
        >
          <header>
            <span className={`badge v-${c.verdict}`}>{c.verdict}</span> <strong>{c.role.replaceAll('_', ' ')}</strong>{' '}
            <span className="muted">action {c.actionIndex}</span> <span className="kind-tag">{KIND_NAME[c.kind]}</span>
          </header>
          <dl className="kv">
            <dt>signer</dt>
            <dd>
              {c.signer ? <Id text={c.signer.text} what="signer" /> : <span className="muted">none derived</span>}
            </dd>
            <dt>chain id</dt>
            <dd className="mono">{chainText(c.chainId)}</dd>
            <dt>replay key</dt>
            <dd>
              {c.replayKey ? (
                <span className="id">
                  <code title={c.replayKey}>{replayKeyShort(c.replayKey)}</code>{' '}
                  <CopyButton text={c.replayKey} what="replay key" />
                </span>
              ) : (
                <span className="muted">none</span>
              )}
            </dd>
            {c.reason && (
              <>
                <dt>why</dt>
                <dd className="reason">
                  {c.reason}
                  {c.failRule && <span className="muted"> ({c.failRule})</span>}
                </dd>
              </>
            )}
          </dl>
          {Object.keys(c.evidence).length > 0 && (
            <details className="evidence" open={c.verdict !== 'valid'}>
              <summary>What was hashed and checked</summary>
              <dl className="kv">
                {evidenceRows(c, text, prehash).map(([k, v]) => (
                  <div key={k} className="kv-row">
                    <dt>{k}</dt>
                    <dd className="hex">{v}</dd>
                  </div>
                ))}
              </dl>
            </details>
          )}
          {c.kind === 'erc_6492' && onChain && (
            <p className="small">
              Judged on its chain (IDENT-060):{' '}
              <button type="button" className="link" onClick={onChain}>
                chain evidence
              </button>
            </p>
          )}
        </article>
      ))}
    </section>
  )
}
