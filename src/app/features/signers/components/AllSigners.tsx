/** The signers panel's list of every signer this browser holds, with its kind and identifier. */
import { useState } from 'react'
import type { AppSigner } from '../../../model/app-signer'
import { Id } from '../../../ui/Id'
import { checkSigner, type SignerCheck } from '../check'
import type { SignerManager } from '../useSignerRegistry'
import { Kind } from './section'

export function AllSigners({ registry }: { registry: SignerManager }) {
  const [checks, setChecks] = useState<Record<string, SignerCheck | 'running'>>({})
  const check = (sg: AppSigner) => {
    setChecks((c) => ({ ...c, [sg.id]: 'running' }))
    void checkSigner(sg, new Date(), registry.smartWallets.verifyContext).then((r) =>
      setChecks((c) => ({ ...c, [sg.id]: r })),
    )
  }
  return (
    <section className="signers-section signers-all" aria-labelledby="signers-all">
      <h3 id="signers-all">Signers available for signing</h3>
      <p className="hint">
        What the signing playground can sign with, in this order. &ldquo;Test signature&rdquo; signs a short text that
        approves nothing and verifies it as a validator would
        {registry.signers.some((x) => x.interactive) ? '; for a wallet or a passkey it opens the prompt' : ''}.
      </p>
      {registry.signers.length === 0 ? (
        <p className="empty">No signer yet: connect a wallet, create a passkey or generate a key above.</p>
      ) : (
        <ul className="signers-list" aria-label="Signers available for signing">
          {registry.signers.map((sg) => {
            const c = checks[sg.id]
            return (
              <li key={sg.id} className="signer-item">
                <div className="signer-line">
                  <Kind source={sg.source} /> <span>{sg.label}</span>{' '}
                  <Id text={sg.identifier.text} what={sg.identifier.kind === 'ethereum' ? 'address' : 'public key'} />
                  <span className="spacer" />
                  <button
                    type="button"
                    onClick={() => check(sg)}
                    disabled={c === 'running'}
                    aria-label={`Test signature with ${sg.label}`}
                  >
                    {c === 'running' ? 'Signing…' : 'Test signature'}
                  </button>
                </div>
                {c && c !== 'running' && (
                  <p
                    className={c.ok ? 'signers-done' : 'signers-error'}
                    role="status"
                    aria-label={`Test signature result of ${sg.label}`}
                  >
                    {c.ok ? `${c.kind} signature verifies to ${c.signer}` : `${c.code}: ${c.message}`}
                  </p>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
