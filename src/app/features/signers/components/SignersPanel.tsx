/**
 * The signers panel: where signers come from. Browser wallets found by EIP-6963 (connect,
 * disconnect), passkeys created here (create, forget), local Ethereum keys (generate,
 * import, export after a confirmation, delete), installation keys (generate, delete) and
 * smart contract wallets (add on a chain route with an owner, deployed or counterfactual
 * through a factory; the demo wallets of `npm start` in one click; remove). Every signer shows its kind and its identifier (shortened, with copy).
 *
 * A private key is shown only in the export box, after the user confirmed that they are
 * exporting a private key (IDENT-088), in a read-only field, and never in the page text,
 * the URL or the console.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import type { AppSigner, AppSignerSource } from '../../../model/app-signer'
import { download } from '../../../ui/download'
import { Id } from '../../../ui/Id'
import { CopyButton } from '../../../ui/CopyButton'
import { shortId } from '../../../ui/format'
import { SOURCE_LABEL } from '../app-signers'
import { checkSigner, type SignerCheck } from '../check'
import { DEMO_OWNER_LABEL, describeSigning, ownerAddress, type SmartWalletForm } from '../smart-wallets'
import type { KeptKey } from '../vault'
import type { SignerManager, SmartWalletEntry, WalletEntry } from '../useSignerRegistry'

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i

function Kind({ source }: { source: AppSignerSource }) {
  return <span className="kind-tag">{SOURCE_LABEL[source]}</span>
}

/** Runs one action at a time for a section and keeps its outcome. */
function useAction() {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const run = async (name: string, f: () => Promise<string | void>) => {
    setBusy(name)
    setError(null)
    setDone(null)
    try {
      const msg = await f()
      if (msg) setDone(msg)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(null)
    }
  }
  return { busy, error, done, run, setError, clear: () => (setError(null), setDone(null)) }
}

function Outcome({ error, done, label }: { error: string | null; done: string | null; label: string }) {
  return (
    <>
      {error && (
        <p className="signers-error" role="alert" aria-label={`${label}: error`}>
          {error}
        </p>
      )}
      {done && (
        <p className="signers-done" role="status" aria-label={`${label}: done`}>
          {done}
        </p>
      )}
    </>
  )
}

export function SignersPanel({ registry, onClose }: { registry: SignerManager; onClose?: () => void }) {
  const v = registry.vault
  return (
    <section className="signers-panel" aria-labelledby="signers-title">
      <div className="open-head">
        <h2 id="signers-title">Signers</h2>
        {onClose && (
          <button type="button" onClick={onClose} aria-label="Close the signers panel">
            Close
          </button>
        )}
      </div>
      <p className="hint">
        Keys and passkey records are kept only in this browser, for this site. Clearing this site&apos;s data deletes
        them: export an Ethereum key first if you need it again.
      </p>
      {v.notice && (
        <p className="notice" role="alert" aria-label="Storage notice">
          {v.notice}
        </p>
      )}
      {v.problems.length > 0 && (
        <ul className="signers-error" aria-label="Storage problems">
          {v.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {!v.ready && <p className="muted">Reading the keys kept in this browser…</p>}
      <div className="signers-grid">
        <Wallets registry={registry} />
        <Passkeys registry={registry} />
        <EthereumKeys registry={registry} />
        <InstallationKeys registry={registry} />
        <SmartWallets registry={registry} />
      </div>
      <AllSigners registry={registry} />
    </section>
  )
}

// ---- wallets ------------------------------------------------------------------------------

function WalletIcon({ w }: { w: WalletEntry }) {
  // Only inline images: an https icon would make the page fetch from the wallet's host.
  if (!w.icon || !/^data:image\/(png|svg\+xml|webp|gif|jpeg);/i.test(w.icon)) return null
  return <img className="wallet-icon" src={w.icon} alt="" width={16} height={16} />
}

function Wallets({ registry }: { registry: SignerManager }) {
  const { wallets, connecting, error, connect, disconnect } = registry.wallets
  return (
    <section className="signers-section" aria-labelledby="signers-wallets">
      <h3 id="signers-wallets">Browser wallets</h3>
      {wallets.length === 0 ? (
        <p className="muted" role="status">
          No browser wallet found. A wallet extension that announces itself to pages (EIP-6963) shows up here; install
          or enable one, then reload this page.
        </p>
      ) : (
        <ul className="signers-list" aria-label="Wallets found">
          {wallets.map((w) => (
            <li key={w.uid} className="signer-item">
              <div className="signer-line">
                <WalletIcon w={w} />
                <strong>{w.name}</strong> <span className="muted small">{w.id}</span>
                <span className="spacer" />
                {w.accounts.length === 0 ? (
                  <button
                    type="button"
                    onClick={() => connect(w.uid)}
                    disabled={connecting !== null}
                    aria-label={`Connect ${w.name}`}
                  >
                    {connecting === w.uid ? 'Connecting…' : 'Connect'}
                  </button>
                ) : (
                  <button type="button" onClick={() => disconnect(w.uid)} aria-label={`Disconnect ${w.name}`}>
                    Disconnect
                  </button>
                )}
              </div>
              {w.accounts.length > 0 && (
                <ul className="signers-sublist" aria-label={`Accounts of ${w.name}`}>
                  {w.accounts.map((a) => (
                    <li key={a} className="signer-line">
                      <Kind source="wallet" /> <Id text={a.toLowerCase()} what="address" />
                      <span className="muted small">
                        signs with personal_sign; each signature opens the wallet&apos;s prompt
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="signers-error" role="alert" aria-label="Wallet error">
          {error}
        </p>
      )}
    </section>
  )
}

// ---- passkeys -----------------------------------------------------------------------------

function Passkeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const passkeys = registry.vault.passkeys
  const ipHost = IP_HOST.test(registry.rpId)
  const create = (e: FormEvent) => {
    e.preventDefault()
    void a.run('create', async () => {
      const s = await registry.newPasskey(name)
      setName('')
      return `Created ${s.label}.`
    })
  }
  return (
    <section className="signers-section" aria-labelledby="signers-passkeys">
      <h3 id="signers-passkeys">Passkeys</h3>
      {!registry.webauthnSupported ? (
        <p className="muted">This browser does not support WebAuthn, so it cannot create or use passkeys.</p>
      ) : (
        <form className="row-buttons" onSubmit={create}>
          <label htmlFor="passkey-name">Passkey name</label>
          <input
            id="passkey-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. laptop"
            maxLength={64}
            autoComplete="off"
          />
          <button type="submit" disabled={a.busy !== null || !registry.vault.ready}>
            {a.busy ? 'Waiting for the passkey prompt…' : 'Create passkey'}
          </button>
        </form>
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

// ---- confirmations --------------------------------------------------------------------------

/** A button that asks first: the question and the confirming button appear beside it. */
function ConfirmButton({
  label,
  name,
  question,
  confirm,
  onConfirm,
  danger = true,
}: {
  label: string
  name: string
  question: ReactNode
  confirm: string
  onConfirm: () => void
  danger?: boolean
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)} aria-label={name}>
        {label}
      </button>
    )
  return (
    <div className="signers-confirm" role="group" aria-label={name}>
      <p>{question}</p>
      <div className="row-buttons">
        <button
          type="button"
          className={danger ? 'danger' : 'primary'}
          autoFocus
          onClick={() => {
            setAsking(false)
            onConfirm()
          }}
        >
          {confirm}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  )
}

// ---- local Ethereum keys --------------------------------------------------------------------

interface Exported {
  readonly appId: string
  readonly identifier: string
  readonly hex: string
  readonly warning: string
}

function EthereumKeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const [pasted, setPasted] = useState('')
  const [exporting, setExporting] = useState<string | null>(null)
  const [exported, setExported] = useState<Exported | null>(null)
  const fileRef = useRef<HTMLInputElement>(null)
  const keys = registry.vault.keys.filter((k) => k.kind === 'ethereum')
  const ready = registry.vault.ready

  const generate = (e: FormEvent) => {
    e.preventDefault()
    void a.run('generate', async () => {
      const s = await registry.newEthereumKey(name)
      setName('')
      return `Generated ${s.label}.`
    })
  }
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
      <form className="row-buttons" onSubmit={generate}>
        <label htmlFor="eth-key-name">Key name</label>
        <input
          id="eth-key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="optional"
          maxLength={64}
          autoComplete="off"
        />
        <button type="submit" disabled={a.busy !== null || !ready}>
          Generate Ethereum key
        </button>
      </form>
      <form className="row-buttons" onSubmit={importText} aria-label="Import an Ethereum private key">
        <label htmlFor="eth-key-import">Private key</label>
        <input
          id="eth-key-import"
          type="password"
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
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

// ---- installation keys ----------------------------------------------------------------------

function InstallationKeys({ registry }: { registry: SignerManager }) {
  const a = useAction()
  const [name, setName] = useState('')
  const keys = registry.vault.keys.filter((k) => k.kind === 'installation')
  const generate = (e: FormEvent) => {
    e.preventDefault()
    void a.run('generate', async () => {
      const s = await registry.newInstallationKey(name)
      setName('')
      return `Generated ${s.label}.`
    })
  }
  return (
    <section className="signers-section" aria-labelledby="signers-inst">
      <h3 id="signers-inst">Installation keys</h3>
      <form className="row-buttons" onSubmit={generate}>
        <label htmlFor="inst-key-name">Installation key name</label>
        <input
          id="inst-key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="optional"
          maxLength={64}
          autoComplete="off"
        />
        <button type="submit" disabled={a.busy !== null || !registry.vault.ready}>
          Generate installation key
        </button>
      </form>
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

// ---- every signer, as the composer sees it ----------------------------------------------------

function AllSigners({ registry }: { registry: SignerManager }) {
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

// ---- smart contract wallets -------------------------------------------------------------------

const EMPTY_FORM: SmartWalletForm = {
  chainId: '',
  owner: '',
  mode: 'deployed',
  address: '',
  factory: '',
  salt: '',
  label: '',
}

function SmartWallets({ registry }: { registry: SignerManager }) {
  const sw = registry.smartWallets
  const a = useAction()
  const [form, setForm] = useState<SmartWalletForm>(EMPTY_FORM)
  const [checks, setChecks] = useState<Record<string, SignerCheck | 'running'>>({})
  const ready = registry.vault.ready
  // A choice that is gone (a route removed, a wallet disconnected) falls back to the first one there is.
  const chainId = sw.routes.some((r) => r.chainId === form.chainId) ? form.chainId : (sw.routes[0]?.chainId ?? '')
  const owner = sw.owners.some((o) => o.id === form.owner) ? form.owner : (sw.owners[0]?.id ?? '')
  const set = (patch: Partial<SmartWalletForm>) => setForm((f) => ({ ...f, ...patch }))
  const add = (e: FormEvent) => {
    e.preventDefault()
    void a.run('add', async () => {
      const r = await sw.add({ ...form, chainId, owner })
      setForm((f) => ({ ...EMPTY_FORM, mode: f.mode, factory: f.factory }))
      return `Added smart wallet ${r.address} on eip155:${r.chainId}${r.deployment ? ' (counterfactual: its signatures are ERC-6492 wrapped until it is deployed)' : ''}.`
    })
  }
  const test = (entry: SmartWalletEntry) => {
    const id = entry.record.id
    setChecks((c) => ({ ...c, [id]: 'running' }))
    void checkSigner(entry.signer, new Date(), sw.verifyContext).then((r) => setChecks((c) => ({ ...c, [id]: r })))
  }
  return (
    <section className="signers-section signers-smart" aria-labelledby="signers-smart">
      <h3 id="signers-smart">Smart contract wallets</h3>
      <p className="hint">
        A smart contract wallet signs erc_6492: its owner (a local Ethereum key or a connected wallet account) signs the
        text, the chain&apos;s head block becomes the block number, and a wallet with no code yet is ERC-6492 wrapped
        with its factory deployment. Each signature is checked on the chain before it is used (IDENT-060). Only public
        data is kept here: chain, address, owner and deployment.
      </p>
      {sw.demo && (
        <div className="signers-demo" role="group" aria-label="Demo smart wallets">
          <p className="small">
            <code>npm start</code> deployed {sw.demo.wallets.length} demo smart wallet
            {sw.demo.wallets.length === 1 ? '' : 's'} on its local chain eip155:{sw.demo.chainId}. Their owner keys are{' '}
            <strong>public demo keys</strong> (anvil-style: derived from a published label, so anyone can sign with
            them): never fund these wallets or reuse the keys. Adding them imports the owner keys as local Ethereum keys
            labelled &ldquo;{DEMO_OWNER_LABEL}&rdquo;.
          </p>
          <button
            type="button"
            onClick={() => void a.run('demo', () => sw.addDemo())}
            disabled={a.busy !== null || !ready}
          >
            Add the demo smart wallets
          </button>
        </div>
      )}
      {sw.demoProblem && (
        <p className="signers-error" role="alert" aria-label="Demo smart wallets problem">
          The demo smart wallets are not offered: {sw.demoProblem}
        </p>
      )}
      <form className="signers-smart-form" onSubmit={add} aria-label="Add a smart contract wallet">
        <div className="row-buttons">
          {sw.routes.length === 0 ? (
            <span className="muted small">Chain: no chain route yet: add one under Settings › Chain routes first</span>
          ) : (
            <label htmlFor="sw-chain">Chain</label>
          )}
          {sw.routes.length > 0 && (
            <select id="sw-chain" value={chainId} onChange={(e) => set({ chainId: e.target.value })}>
              {sw.routes.map((r) => (
                <option key={r.chainId} value={r.chainId}>
                  {`eip155:${r.chainId} (${r.url})`}
                </option>
              ))}
            </select>
          )}
        </div>
        <div className="row-buttons">
          {sw.owners.length === 0 ? (
            <span className="muted small">
              Owner: no owner available: generate or import a local Ethereum key, or connect a browser wallet
            </span>
          ) : (
            <label htmlFor="sw-owner">Owner</label>
          )}
          {sw.owners.length > 0 && (
            <select id="sw-owner" value={owner} onChange={(e) => set({ owner: e.target.value })}>
              {sw.owners.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </div>
        <div className="row-buttons" role="radiogroup" aria-label="Smart wallet deployment">
          <label>
            <input
              type="radio"
              name="sw-mode"
              checked={form.mode === 'deployed'}
              onChange={() => set({ mode: 'deployed' })}
            />{' '}
            deployed at an address
          </label>
          <label>
            <input
              type="radio"
              name="sw-mode"
              checked={form.mode === 'counterfactual'}
              onChange={() => set({ mode: 'counterfactual' })}
            />{' '}
            counterfactual: deploy through a factory
          </label>
        </div>
        {form.mode === 'deployed' ? (
          <div className="row-buttons">
            <label htmlFor="sw-address">Wallet address</label>
            <input
              id="sw-address"
              className="mono"
              value={form.address}
              onChange={(e) => set({ address: e.target.value })}
              placeholder="0x + 40 hex digits"
              size={44}
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        ) : (
          <>
            <div className="row-buttons">
              <label htmlFor="sw-factory">Factory address</label>
              <input
                id="sw-factory"
                className="mono"
                value={form.factory}
                onChange={(e) => set({ factory: e.target.value })}
                placeholder="0x + 40 hex digits"
                size={44}
                spellCheck={false}
                autoComplete="off"
              />
              <label htmlFor="sw-salt">Salt</label>
              <input
                id="sw-salt"
                className="mono"
                value={form.salt}
                onChange={(e) => set({ salt: e.target.value })}
                placeholder="e.g. 1, or 0x + 64 hex digits"
                size={24}
                spellCheck={false}
                autoComplete="off"
              />
            </div>
            <p className="hint">
              The address is read from the factory&apos;s addressOf(owner, salt) on the chain, so the wallet can sign
              before it is deployed.
            </p>
          </>
        )}
        <div className="row-buttons">
          <label htmlFor="sw-label">Smart wallet name</label>
          <input
            id="sw-label"
            value={form.label}
            onChange={(e) => set({ label: e.target.value })}
            placeholder="optional"
            maxLength={64}
            autoComplete="off"
          />
          <button type="submit" disabled={a.busy !== null || !ready}>
            {a.busy === 'add' ? 'Adding…' : 'Add smart wallet'}
          </button>
        </div>
      </form>
      <Outcome error={a.error} done={a.done} label="Smart contract wallets" />
      {sw.entries.length === 0 ? (
        <p className="empty">No smart contract wallet yet.</p>
      ) : (
        <ul className="signers-list" aria-label="Smart contract wallets kept here">
          {sw.entries.map((e) => {
            const r = e.record
            const name = e.signer.label
            const c = checks[r.id]
            return (
              <li key={r.id} className="signer-item">
                <div className="signer-line">
                  <Kind source="smart-wallet" /> {r.label && <strong>{r.label}</strong>}{' '}
                  <span className="muted small">eip155:{r.chainId}</span> <Id text={r.address} what="address" />
                  <span className="spacer" />
                  <button
                    type="button"
                    onClick={() => test(e)}
                    disabled={c === 'running'}
                    aria-label={`Test smart wallet ${name}`}
                  >
                    {c === 'running' ? 'Signing…' : 'Test signature'}
                  </button>
                  <ConfirmButton
                    label="Remove…"
                    name={`Remove smart wallet ${name}`}
                    question={
                      <>
                        Remove smart wallet {r.address} on eip155:{r.chainId} from this list? The wallet and its owner
                        key are not touched.
                      </>
                    }
                    confirm="Remove smart wallet"
                    onConfirm={() =>
                      void a.run(
                        'remove',
                        async () => (await sw.remove(r.id), `Removed smart wallet ${shortId(r.address)}.`),
                      )
                    }
                  />
                </div>
                <p className="small signer-facts">
                  Owner:{' '}
                  {e.owner ? (
                    e.owner.label
                  ) : (
                    <span className="signers-error-inline">
                      {ownerAddress(r.owner)} is not available (
                      {r.owner.startsWith('wallet:') ? 'its wallet is not connected' : 'its key is not kept here'})
                    </span>
                  )}
                  {r.deployment ? (
                    <>
                      {' '}
                      · ERC-6492 deployment through factory <Id text={r.deployment.factory} what="factory address" />{' '}
                      with salt {shortId(r.deployment.salt)} (signatures are wrapped while the wallet has no code)
                    </>
                  ) : (
                    ' · deployed wallet (ERC-1271; no ERC-6492 deployment given)'
                  )}
                  {e.routeUrl ? (
                    <> · route {e.routeUrl}</>
                  ) : (
                    <span className="signers-error-inline">
                      {' '}
                      · no chain route for eip155:{r.chainId}: it cannot sign (IDENT-061)
                    </span>
                  )}
                </p>
                {e.lastSigning && (
                  <p className="small" role="status" aria-label={`Last signature of ${name}`}>
                    Last signature: {describeSigning(e.lastSigning)}.
                  </p>
                )}
                {c && c !== 'running' && (
                  <p
                    className={c.ok ? 'signers-done' : 'signers-error'}
                    role="status"
                    aria-label={`Test result of ${name}`}
                  >
                    {c.ok ? `${c.kind} signature verifies on the chain to ${c.signer}` : `${c.code}: ${c.message}`}
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
