/** The signers panel's wallets section: browser wallets found by EIP-6963 (connect, disconnect). */
import { Id } from '../../../ui/Id'
import type { SignerManager, WalletEntry } from '../useSignerRegistry'
import { Kind } from './section'

function WalletIcon({ w }: { w: WalletEntry }) {
  // Only inline images: an https icon would make the page fetch from the wallet's host.
  if (!w.icon || !/^data:image\/(png|svg\+xml|webp|gif|jpeg);/i.test(w.icon)) return null
  return <img className="wallet-icon" src={w.icon} alt="" width={16} height={16} />
}

export function Wallets({ registry }: { registry: SignerManager }) {
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
