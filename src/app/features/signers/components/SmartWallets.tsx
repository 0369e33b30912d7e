/** The signers panel's smart contract wallets: added on a chain route with an owner, deployed or counterfactual; the demo wallets of `npm start`; remove. */
import { useState, type FormEvent } from 'react'
import { Id } from '../../../ui/Id'
import { shortId } from '../../../ui/format'
import { checkSigner, type SignerCheck } from '../check'
import { DEMO_OWNER_LABEL } from '../demo-smart-wallets'
import type { SmartWalletForm } from '../smart-wallet-form'
import { ownerAddress } from '../smart-wallet-record'
import { describeSigning } from '../smart-wallets'
import type { SignerManager, SmartWalletEntry } from '../useSignerRegistry'
import { ConfirmButton, HexField, Kind, NameField, Outcome, useAction } from './section'

const EMPTY_FORM: SmartWalletForm = {
  chainId: '',
  owner: '',
  mode: 'deployed',
  address: '',
  factory: '',
  salt: '',
  label: '',
}

/** The deployment choices, as the radio group shows them. */
const MODES = [
  { mode: 'deployed', label: 'deployed at an address' },
  { mode: 'counterfactual', label: 'counterfactual: deploy through a factory' },
] as const

export function SmartWallets({ registry }: { registry: SignerManager }) {
  const sw = registry.smartWallets
  const a = useAction()
  const [form, setForm] = useState<SmartWalletForm>(EMPTY_FORM)
  const [checks, setChecks] = useState<Record<string, SignerCheck | 'running'>>({})
  const ready = registry.vault.ready
  // A choice that is gone (a route removed, a wallet disconnected) falls back to the first one there is.
  const chainId = sw.routes.some((r) => r.chainId === form.chainId) ? form.chainId : (sw.routes[0]?.chainId ?? '')
  const owner = sw.owners.some((o) => o.id === form.owner) ? form.owner : (sw.owners[0]?.id ?? '')
  const set = (patch: Partial<SmartWalletForm>) => setForm((f) => ({ ...f, ...patch }))
  const hex = (key: 'address' | 'factory' | 'salt', label: string, placeholder: string, size: number) => (
    <HexField
      id={`sw-${key}`}
      label={label}
      value={form[key]}
      onChange={(v) => set({ [key]: v })}
      placeholder={placeholder}
      size={size}
    />
  )
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
          {MODES.map(({ mode, label }) => (
            <label key={mode}>
              <input type="radio" name="sw-mode" checked={form.mode === mode} onChange={() => set({ mode })} /> {label}
            </label>
          ))}
        </div>
        {form.mode === 'deployed' ? (
          <div className="row-buttons">{hex('address', 'Wallet address', '0x + 40 hex digits', 44)}</div>
        ) : (
          <>
            <div className="row-buttons">
              {hex('factory', 'Factory address', '0x + 40 hex digits', 44)}
              {hex('salt', 'Salt', 'e.g. 1, or 0x + 64 hex digits', 24)}
            </div>
            <p className="hint">
              The address is read from the factory&apos;s addressOf(owner, salt) on the chain, so the wallet can sign
              before it is deployed.
            </p>
          </>
        )}
        <div className="row-buttons">
          <NameField
            id="sw-label"
            label="Smart wallet name"
            value={form.label}
            onChange={(label) => set({ label })}
            placeholder="optional"
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
