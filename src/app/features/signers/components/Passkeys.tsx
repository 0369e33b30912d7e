/** The signers panel's passkeys created in this browser: create, forget. */
import { useState } from 'react'
import { Id } from '../../../ui/Id'
import { shortId } from '../../../ui/format'
import type { SignerManager } from '../useSignerRegistry'
import { ConfirmButton, IP_HOST, Kind, NameForm, Outcome, useAction } from './section'

export function Passkeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const passkeys = registry.vault.passkeys
  const ipHost = IP_HOST.test(registry.rpId)
  return (
    <section className="signers-section" aria-labelledby="signers-passkeys">
      <h3 id="signers-passkeys">Passkeys</h3>
      {!registry.webauthnSupported ? (
        <p className="muted">This browser does not support WebAuthn, so it cannot create or use passkeys.</p>
      ) : (
        <NameForm
          a={a}
          verb="create"
          make={async (n) => `Created ${(await registry.newPasskey(n)).label}.`}
          name={name}
          setName={setName}
          id="passkey-name"
          label="Passkey name"
          placeholder="e.g. laptop"
          disabled={!registry.vault.ready}
        >
          {a.busy ? 'Waiting for the passkey prompt…' : 'Create passkey'}
        </NameForm>
      )}
      {ipHost && (
        <p className="hint">WebAuthn refuses IP addresses: open this app as http://localhost:… to use passkeys.</p>
      )}
      <p className="hint">
        The relying party is {registry.rpId || 'this page'}; a passkey made here signs only on this site.
      </p>
      <Outcome error={a.error} done={a.done} label="Passkeys" />
      {passkeys.length === 0 ? (
        <p className="empty">No passkey created here yet.</p>
      ) : (
        <ul className="signers-list" aria-label="Passkeys kept here">
          {passkeys.map((p) => (
            <li key={p.id} className="signer-item">
              <div className="signer-line">
                <Kind source="passkey" /> <strong>{p.label || 'unnamed'}</strong>{' '}
                <Id text={p.publicKey} what="passkey public key" />
                <span className="muted small">rp {p.rpId}</span>
                <span className="spacer" />
                <ConfirmButton
                  label="Forget…"
                  name={`Forget passkey ${p.label || shortId(p.publicKey)}`}
                  question={
                    <>
                      Forget passkey {p.label ? `‘${p.label}’` : shortId(p.publicKey)}? This removes it from this list
                      only: the credential itself stays on your authenticator (remove it there, in your browser&apos;s
                      or device&apos;s passkey settings).
                    </>
                  }
                  confirm="Forget passkey"
                  onConfirm={() =>
                    void a.run(
                      'forget',
                      async () => (
                        await registry.forgetPasskey(p.id), `Forgot the passkey; it is still on the authenticator.`
                      ),
                    )
                  }
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
