import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { claimPolicyProblem, type ClaimPolicy } from '../../../../network/claim-policy'
import { type HandleHolderLike, useNodeService } from '../../../model/node-service'
import { shortId } from '../../../ui/format'
import { useDebounced } from '../../../ui/useDebounced'
import { EMPTY_FORM, withDefaults } from '../compose-form'
import { buildDraft } from '../compose-model'
import { eligible, partiesOf } from '../parties'
import { nowNs } from '../useComposer'
import { HANDLE_PAUSE_MS } from '../useSignDraft'
import { HandleField, PartySelect } from '../components/fields'
import type { FlowProps } from './flow-props'
import { SignEnd } from './SignEnd'
import { useFlowSigning } from './useFlowSigning'

/** Claim a handle: the grammar (IDENT-078), the node's policy (IDENT-084) and who holds it (IDENT-085), before signing. */

export function ClaimFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [handle, setHandle] = useState('')
  const [claimer, setClaimer] = useState('')
  const [ts, setTs] = useState(nowNs)
  const form = useMemo(
    () => withDefaults({ ...EMPTY_FORM, action: 'claim_handle', handle, claimer }, state, parties),
    [handle, claimer, state, parties],
  )
  const build = useMemo(() => buildDraft(form, { state, parties, clientTimestampNs: ts }), [form, state, parties, ts])
  const onSigned = useCallback(() => {
    setHandle('')
    setTs(nowNs())
  }, [])
  const typed = handle.trim()
  const s = useFlowSigning(p, build, parties, typed || null, onSigned)
  const claim = build.claim
  // Who the node says holds it, checked against that inbox's own log (IDENT-085): asked once
  // typing pauses, cached per handle (the check before signing reuses the lookup).
  const node = useNodeService()
  const asked = useDebounced(typed, HANDLE_PAUSE_MS)
  const holderQuery = useQuery({ ...node.handleHolder(asked), enabled: !!asked && asked === typed && !!claim?.valid })
  const holderNow =
    asked !== typed
      ? null
      : holderQuery.isSuccess
        ? { h: holderQuery.data as HandleHolderLike | null }
        : holderQuery.isError
          ? { h: null, error: holderQuery.error.message }
          : null
  // The node's claim policy (reserved names, minimum length), applied only when it admits a claim (IDENT-084).
  const policyQuery = useQuery(node.claimPolicy())
  const policy = policyQuery.isSuccess
    ? { p: policyQuery.data as ClaimPolicy | null }
    : policyQuery.isError
      ? { p: null, error: policyQuery.error.message }
      : null
  const policyNo = policy?.p && typed && claim?.valid ? claimPolicyProblem(typed, policy.p) : null
  const refuse = policyNo ? `the node's claim policy would refuse it: ${policyNo.message} (${policyNo.code})` : null
  return (
    <div className="compose-body">
      <HandleField value={handle} onChange={setHandle} />
      <p role="status" aria-label="Handle check" className="small">
        {!typed ? (
          <span className="muted">
            a-z first, then a-z, 0-9, _ or -, up to 27 characters, optionally # and four digits (IDENT-078).
          </span>
        ) : claim && !claim.valid ? (
          <span className="bad">
            “{typed}” {claim.problem} (IDENT-078).
          </span>
        ) : policyNo ? (
          <span className="bad">
            The node's claim policy would refuse it: {policyNo.message} ({policyNo.code}).
          </span>
        ) : !holderNow ? (
          <span className="muted">The grammar accepts it; asking {node.url} who holds it…</span>
        ) : holderNow.error ? (
          <span className="warn">The grammar accepts it; the node could not be asked: {holderNow.error}</span>
        ) : holderNow.h?.inboxId === null ? (
          <span className="ok">The grammar accepts it, and the node names no inbox for it: it is free.</span>
        ) : holderNow.h?.inboxId === state.inboxId ? (
          <span className="ok">This inbox holds it already (its log claims it, IDENT-085).</span>
        ) : holderNow.h?.backed ? (
          <span className="bad">
            Taken: inbox <code>{shortId(holderNow.h.inboxId ?? '')}</code> holds it, and its own log claims it
            (IDENT-085). The node would refuse the claim (handle_taken).
          </span>
        ) : (
          <span className="warn">
            The node names inbox <code>{shortId(holderNow.h?.inboxId ?? '')}</code>, but that inbox's log does not back
            it (IDENT-085: {holderNow.h?.reason}); the node may still refuse the claim.
          </span>
        )}
      </p>
      <PartySelect
        label="Signed by (any current member)"
        ariaLabel="Signed by"
        value={form.claimer}
        parties={eligible(parties, 'claimer')}
        onChange={setClaimer}
        empty="choose…"
      />
      <p className="muted small" aria-label="Claim policy">
        {policy?.p
          ? `This node admits names of at least ${policy.p.minHandleLength} characters${policy.p.reserved.length ? ` and reserves ${policy.p.reserved.join(', ')}` : ''}${policy.p.claimIntervalNs > 0n ? `, one claim per ${policy.p.claimIntervalNs / 1_000_000n} ms` : ''}. `
          : policy?.error
            ? `The node's claim policy could not be read (${policy.error}). `
            : policy
              ? 'This node publishes no claim policy. '
              : ''}
        A node applies its policy only when it stores a claim; no validator applies it to a stored log (IDENT-084). A
        refusal after signing names the policy, and the signed update is kept.
      </p>
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel="Claim and publish"
        refuse={refuse}
        changes={
          claim && (
            <ul>
              <li>
                The display handle becomes <strong>{claim.handle}</strong>
                {claim.alreadyDisplay
                  ? ' (it is already: the claim changes no order, and still counts)'
                  : claim.alreadyHeld
                    ? ': the inbox claimed it before, so this moves it to the end of its handles (IDENT-082)'
                    : ''}
                .
              </li>
              <li>
                Handles after the claim, display handle first (IDENT-086):{' '}
                {[...claim.handlesAfter].reverse().join(', ') || 'none'}
              </li>
              <li>
                Claim {claim.claimCount + 1} of 64; {Math.max(0, claim.claimsLeft - 1)} left after it (IDENT-080).
              </li>
            </ul>
          )
        }
      />
    </div>
  )
}
