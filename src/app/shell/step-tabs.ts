/**
 * Which tabs the selected step has and which one opens: the user's choice is kept from
 * step to step (and in the permalink); without one, an applied step opens on its state
 * and a rejected or pending step on the view that explains why (its signatures for a
 * signer or signature check, its raw bytes for an encoding failure, IDENT-001, its
 * signature text for what the actions say, its state for a check against the members).
 */
import type { ViolationCheck } from '../../core/errors'
import type { SignatureCheck } from '../../core/trace'
import type { TransferStep } from '../../worker/transfer'
import type { TabSpec } from '../ui/Tabs'

export type TabId = 'state' | 'diff' | 'text' | 'signatures' | 'raw' | 'chain'

const LABEL: Record<TabId, string> = {
  state: 'State',
  diff: 'Diff',
  text: 'Signature text',
  signatures: 'Signatures',
  raw: 'Raw',
  chain: 'Chain',
}

const ORDER: readonly TabId[] = ['state', 'diff', 'text', 'signatures', 'raw', 'chain']

export function isTabId(v: unknown): v is TabId {
  return typeof v === 'string' && (ORDER as readonly string[]).includes(v)
}

/** The step's tabs: Chain only when a signature in view is an erc_6492 one (it has chain evidence). */
export function tabsFor(checks: readonly SignatureCheck[]): TabSpec<TabId>[] {
  const chain = checks.some((c) => c.kind === 'erc_6492')
  return ORDER.filter((t) => t !== 'chain' || chain).map((id) => ({ id, label: LABEL[id] }))
}

const EXPLAINED_BY: Record<ViolationCheck, TabId> = {
  'signature-kind': 'signatures',
  'signature-invalid': 'signatures',
  'signer-mismatch': 'signatures',
  'signer-not-member': 'signatures',
  'same-party': 'signatures',
  'chain-mismatch': 'signatures',
  'no-replay-key': 'signatures',
  replay: 'signatures',
  empty: 'raw',
  'no-state': 'state',
  'state-exists': 'state',
  'already-member': 'state',
  'installation-adds-installation': 'state',
  'claim-limit': 'state',
  'identifier-kind': 'text',
  'identifier-form': 'text',
  'handle-grammar': 'text',
  'claim-not-alone': 'text',
  'inbox-mismatch': 'text',
}

/** The tab that explains a step: its state when it applied, else the view its failure is read in. */
export function defaultTab(step: TransferStep, tabs: readonly TabSpec<TabId>[]): TabId {
  const has = (t: TabId) => tabs.some((x) => x.id === t)
  if (step.status === 'pending') return has('chain') ? 'chain' : 'signatures'
  if (step.status !== 'rejected') return 'state'
  if (step.details) return EXPLAINED_BY[step.details.check]
  if (step.rule === 'IDENT-001' || step.signatureText === null) return 'raw'
  if (step.signatures.some((s) => s.verdict === 'invalid')) return 'signatures'
  return 'state'
}

/** The tab to show: the user's choice when this step has it, else the step's own default. */
export function activeTab(chosen: TabId | null, step: TransferStep, tabs: readonly TabSpec<TabId>[]): TabId {
  return chosen !== null && tabs.some((t) => t.id === chosen) ? chosen : defaultTab(step, tabs)
}
