/** The signers panel's local Ethereum keys: generate, import, export after a confirmation (IDENT-088), delete. */
import { useRef, useState, type FormEvent } from 'react'
import { download } from '../../../ui/download'
import { Id } from '../../../ui/Id'
import { CopyButton } from '../../../ui/CopyButton'
import { shortId } from '../../../ui/format'
import type { KeptKey } from '../vault'
import type { SignerManager } from '../useSignerRegistry'
import { ConfirmButton, errorText, Kind, NameForm, Outcome, useAction } from './section'
import { TextInput } from '../../../ui/TextInput'

interface Exported {
  readonly appId: string
  readonly identifier: string
  readonly hex: string
  readonly warning: string
}

export function EthereumKeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const [pasted, setPasted] = useState('')
  const [exporting, setExporting] = useState<string | null>(null)
  const [exported, setExported] = useState<Exported | null>(null)
  const fileRef = useRef<HTMLInputElement>(null)
  const keys = registry.vault.keys.filter((k) => k.kind === 'ethereum')
  const ready = registry.vault.ready

  const importText = (e: FormEvent) => {
    e.preventDefault()
    // Whitespace around pasted text (a trailing newline) is not part of the key.
    const text = pasted.trim()
    void a.run('import', async () => {
      const s = await registry.importEthereumKey(text, name)
      setPasted('')
      setName('')
      return `Imported ${s.label}.`
    })
  }
  const importFile = (file: File) => {
    void a.run('import', async () => {
      if (file.size > 1024)
        throw new Error(
          `${file.name} is ${file.size} bytes: a private key file is exactly 32 bytes (IDENT-088, IDENT-089)`,
        )
      const bytes = new Uint8Array(await file.arrayBuffer())
      try {
        const s = await registry.importEthereumKey(bytes, name)
        setName('')
        return `Imported ${s.label} from ${file.name}.`
      } catch (err) {
        const looksHex = /^\s*0x[0-9a-fA-F]{64}\s*$/.test(new TextDecoder().decode(bytes))
        throw new Error(
          `${file.name}: ${errorText(err)}${looksHex ? ' This file holds the key as hex text: paste it in the private key field instead.' : ''}`,
        )
      } finally {
        if (fileRef.current) fileRef.current.value = ''
      }
    })
  }
  const exportHex = (k: KeptKey) => {
    try {
      const x = registry.exportEthereumKey(k.appId, 'hex')
      setExported({ appId: k.appId, identifier: x.identifier, hex: x.value, warning: x.warning })
      setExporting(null)
    } catch (e) {
      a.setError(errorText(e))
    }
  }
  const exportFile = (k: KeptKey) => {
    try {
      const x = registry.exportEthereumKey(k.appId, 'bytes')
      download(`ethereum-private-key-${x.identifier}.key`, x.value)
      setExporting(null)
      a.clear()
    } catch (e) {
      a.setError(errorText(e))
    }
  }

  return (
    <section className="signers-section" aria-labelledby="signers-eth">
      <h3 id="signers-eth">Local Ethereum keys</h3>
      <NameForm
        a={a}
        verb="generate"
        make={async (n) => `Generated ${(await registry.newEthereumKey(n)).label}.`}
        name={name}
        setName={setName}
        id="eth-key-name"
        label="Key name"
        placeholder="optional"
        disabled={!ready}
      >
        Generate Ethereum key
      </NameForm>
      <form className="row-buttons" onSubmit={importText} aria-label="Import an Ethereum private key">
        <label htmlFor="eth-key-import">Private key</label>
        <TextInput
          id="eth-key-import"
          type="password"
          value={pasted}
          onValue={setPasted}
          placeholder="0x + 64 hex digits"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={a.busy !== null || !ready || pasted.trim() === ''}>
          Import key
        </button>
      </form>
      <div className="row-buttons">
        <label htmlFor="eth-key-file">Or import a 32-byte key file</label>
        <input
          id="eth-key-file"
          ref={fileRef}
          type="file"
          disabled={a.busy !== null || !ready}
          onChange={(e) => {
            const f = e.target.files?.[0]
            if (f) importFile(f)
          }}
        />
      </div>
      <Outcome error={a.error} done={a.done} label="Local Ethereum keys" />
      {keys.length === 0 ? (
        <p className="empty">No local Ethereum key yet.</p>
      ) : (
        <ul className="signers-list" aria-label="Local Ethereum keys kept here">
          {keys.map((k) => (
            <li key={k.appId} className="signer-item">
              <div className="signer-line">
                <Kind source="local-ethereum" /> {k.label && <strong>{k.label}</strong>}{' '}
                <Id text={k.identifier} what="address" />
                <span className="spacer" />
                <button
                  type="button"
                  onClick={() => setExporting(exporting === k.appId ? null : k.appId)}
                  aria-expanded={exporting === k.appId}
                  aria-label={`Export private key of ${shortId(k.identifier)}…`}
                >
                  Export private key…
                </button>
                <ConfirmButton
                  label="Delete…"
                  name={`Delete key ${shortId(k.identifier)}`}
                  question={
                    <>
                      Delete the key of {k.identifier} from this browser? Unless you exported it, the account cannot
                      sign again.
                    </>
                  }
                  confirm="Delete key"
                  onConfirm={() => {
                    if (exported?.appId === k.appId) setExported(null)
                    void a.run(
                      'delete',
                      async () => (await registry.deleteKey(k.appId), `Deleted the key of ${shortId(k.identifier)}.`),
                    )
                  }}
                />
              </div>
              {exporting === k.appId && (
                <div
                  className="signers-confirm"
                  role="group"
                  aria-label={`Confirm export of the private key of ${shortId(k.identifier)}`}
                >
                  <p>
                    <strong>You are exporting a private key.</strong> Anyone who has it controls the Ethereum account{' '}
                    {k.identifier} and can approve changes to every inbox it is a member or recovery identifier of.
                    Export it only to keep it somewhere safe.
                  </p>
                  <div className="row-buttons">
                    <button type="button" className="danger" onClick={() => exportHex(k)}>
                      Show private key as hex
                    </button>
                    <button type="button" className="danger" onClick={() => exportFile(k)}>
                      Save private key as 32-byte file
                    </button>
                    <button type="button" onClick={() => setExporting(null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              )}
              {exported?.appId === k.appId && (
                <div
                  className="signers-export"
                  role="group"
                  aria-label={`Exported private key of ${shortId(k.identifier)}`}
                >
                  <p className="small">{exported.warning}</p>
                  <div className="row-buttons">
                    <input
                      readOnly
                      value={exported.hex}
                      aria-label={`Private key of ${shortId(k.identifier)} (hex)`}
                      spellCheck={false}
                      className="mono"
                    />
                    <CopyButton text={exported.hex} what="private key" />
                    <button type="button" onClick={() => setExported(null)}>
                      Hide
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
