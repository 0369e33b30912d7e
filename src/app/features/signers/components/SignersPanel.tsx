/**
 * The signers panel: where signers come from. Browser wallets found by EIP-6963 (connect,
 * disconnect), passkeys created here (create, forget), local Ethereum keys (generate,
 * import, export after a confirmation, delete), installation keys (generate, delete) and
 * smart contract wallets (add on a chain route with an owner, deployed or counterfactual
 * through a factory; the demo wallets of `npm start` in one click; remove). Every signer shows its kind and its identifier (shortened, with copy).
 *
 * A private key is shown only in the export box, after the user confirmed that they are
 * exporting a private key (IDENT-088), in a read-only field, and never in the page text,
 * the URL or the console. Each source is its own section (Wallets.tsx, Passkeys.tsx, EthereumKeys.tsx,
 * InstallationKeys.tsx, SmartWallets.tsx; AllSigners.tsx lists them all; section.tsx what they share).
 */
import { useSignerManager } from '../registry-context'
import { Wallets } from './Wallets'
import { Passkeys } from './Passkeys'
import { EthereumKeys } from './EthereumKeys'
import { InstallationKeys } from './InstallationKeys'
import { AllSigners } from './AllSigners'
import { SmartWallets } from './SmartWallets'
import { PanelHead } from '../../../ui/PanelHead'
import { TextList } from '../../../ui/TextList'

export function SignersPanel({ onClose }: { onClose?: () => void }) {
  const registry = useSignerManager()
  const v = registry.vault
  return (
    <section className="signers-panel" aria-labelledby="signers-title">
      <PanelHead id="signers-title" title="Signers" closeLabel="Close the signers panel" onClose={onClose} />
      <p className="hint">
        Keys and passkey records are kept only in this browser, for this site. Clearing this site&apos;s data deletes
        them: export an Ethereum key first if you need it again.
      </p>
      {v.notice && (
        <p className="notice" role="alert" aria-label="Storage notice">
          {v.notice}
        </p>
      )}
      <TextList items={v.problems} className="signers-error" label="Storage problems" />
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
