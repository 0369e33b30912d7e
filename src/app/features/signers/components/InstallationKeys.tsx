/** The signers panel's installation keys: generate, delete. */
import { useState } from 'react'
import { Id } from '../../../ui/Id'
import { shortId } from '../../../ui/format'
import type { SignerManager } from '../useSignerRegistry'
import { ConfirmButton, Kind, NameForm, Outcome, useAction } from './section'

export function InstallationKeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const keys = registry.vault.keys.filter((k) => k.kind === 'installation')
  return (
    <section className="signers-section" aria-labelledby="signers-inst">
      <h3 id="signers-inst">Installation keys</h3>
      <NameForm
        a={a}
        verb="generate"
        make={async (n) => `Generated ${(await registry.newInstallationKey(n)).label}.`}
        name={name}
        setName={setName}
        id="inst-key-name"
        label="Installation key name"
        placeholder="optional"
        disabled={!registry.vault.ready}
      >
        Generate installation key
      </NameForm>
      <p className="hint">Ed25519 keys for installations; they are not exported and stay in this browser.</p>
      <Outcome error={a.error} done={a.done} label="Installation keys" />
      {keys.length === 0 ? (
        <p className="empty">No installation key yet.</p>
      ) : (
        <ul className="signers-list" aria-label="Installation keys kept here">
          {keys.map((k) => (
            <li key={k.appId} className="signer-item">
              <div className="signer-line">
                <Kind source="installation" /> {k.label && <strong>{k.label}</strong>}{' '}
                <Id text={k.identifier} what="installation public key" />
                <span className="spacer" />
                <ConfirmButton
                  label="Delete…"
                  name={`Delete installation key ${shortId(k.identifier)}`}
                  question={
                    <>
                      Delete installation key {shortId(k.identifier)} from this browser? An installation that uses it
                      cannot sign again.
                    </>
                  }
                  confirm="Delete installation key"
                  onConfirm={() =>
                    void a.run(
                      'delete',
                      async () => (
                        await registry.deleteKey(k.appId), `Deleted installation key ${shortId(k.identifier)}.`
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
