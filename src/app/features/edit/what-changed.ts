/**
 * "What changed" (issue #16): an edited log's replay against the original's, as the edit
 * drawer shows it. Which updates' verdicts changed (applied → rejected under which rule,
 * and back), the exact characters of each signature text that changed, which signatures
 * no longer verify (or now name another signer) and why, and how the head states differ
 * (the states' diff is the state feature's, passed in by the shell: features never
 * import each other).
 */
import type { RuleId } from '../../../core/rules'
import { describeMember, sameMember } from '../../../core/text/identifier'
import type { SignatureCheck, UpdateStatus } from '../../../core/trace'

/** What the comparison reads of one replayed update (a TransferStep or a core TraceStep). */
export interface ComparedStep {
  readonly sequenceId: bigint
  readonly status: UpdateStatus
  readonly rule: RuleId | null
  readonly message: string
  readonly signatureText: string | null
  readonly signatures: readonly SignatureCheck[]
}

export interface Verdict {
  readonly status: UpdateStatus
  readonly rule: RuleId | null
  readonly message: string
}

interface VerdictChange {
  readonly sequenceId: bigint
  /** Null: the update is not in the original (added by a duplicate or a move). */
  readonly before: Verdict | null
  /** Null: the update is not in the edited log (dropped or moved away). */
  readonly after: Verdict | null
}

export type Segment = { readonly op: 'same' | 'del' | 'ins'; readonly text: string }

interface TextChange {
  readonly sequenceId: bigint
  readonly segments: readonly Segment[]
  readonly removed: number
  readonly inserted: number
}

interface SignatureChange {
  readonly sequenceId: bigint
  readonly actionIndex: number
  readonly role: SignatureCheck['role']
  readonly kind: SignatureCheck['kind']
  /** 'broken': verified before, not now; 'signer': verifies, but names another signer; 'fixed': verifies again. */
  readonly change: 'broken' | 'signer' | 'fixed'
  readonly why: string
}

export interface WhatChanged<D> {
  readonly verdicts: readonly VerdictChange[]
  readonly texts: readonly TextChange[]
  readonly signatures: readonly SignatureChange[]
  /** The head states' diff (original head → edited head). */
  readonly head: D
}

const verdictOf = (s: ComparedStep): Verdict => ({ status: s.status, rule: s.rule, message: s.message })

/**
 * The character diff of two texts: the common prefix and suffix, and between them the
 * longest common subsequence of characters (the middle of an edit is short). Past
 * `maxCells` of work the middle is one deletion and one insertion.
 */
export function charDiff(a: string, b: string, maxCells = 4_000_000): Segment[] {
  const A = [...a]
  const B = [...b]
  let p = 0
  while (p < A.length && p < B.length && A[p] === B[p]) p++
  let q = 0
  while (q < A.length - p && q < B.length - p && A[A.length - 1 - q] === B[B.length - 1 - q]) q++
  const am = A.slice(p, A.length - q)
  const bm = B.slice(p, B.length - q)
  const out: Segment[] = []
  const push = (op: Segment['op'], text: string): void => {
    if (!text) return
    const last = out.at(-1)
    if (last?.op === op) out[out.length - 1] = { op, text: last.text + text }
    else out.push({ op, text })
  }
  push('same', A.slice(0, p).join(''))
  const n = am.length
  const m = bm.length
  if ((n + 1) * (m + 1) > maxCells) {
    push('del', am.join(''))
    push('ins', bm.join(''))
  } else {
    // L[i][j]: the LCS length of am[i..] and bm[j..].
    const w = m + 1
    const L = new Uint32Array((n + 1) * w)
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        L[i * w + j] = am[i] === bm[j] ? L[(i + 1) * w + j + 1]! + 1 : Math.max(L[(i + 1) * w + j]!, L[i * w + j + 1]!)
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        push('same', am[i]!)
        i++
        j++
      } else if (i < n && (j === m || L[(i + 1) * w + j]! >= L[i * w + j + 1]!)) {
        push('del', am[i]!)
        i++
      } else {
        push('ins', bm[j]!)
        j++
      }
    }
  }
  push('same', A.slice(A.length - q).join(''))
  return out
}

const count = (segs: readonly Segment[], op: Segment['op']): number =>
  segs.reduce((n, s) => (s.op === op ? n + [...s.text].length : n), 0)

function signatureChanges(seq: bigint, before: ComparedStep, after: ComparedStep): SignatureChange[] {
  const out: SignatureChange[] = []
  for (const c of after.signatures) {
    const o = before.signatures.find((x) => x.actionIndex === c.actionIndex && x.role === c.role)
    if (!o) continue
    const base = { sequenceId: seq, actionIndex: c.actionIndex, role: c.role, kind: c.kind }
    if (o.verdict === 'valid' && c.verdict === 'invalid')
      out.push({ ...base, change: 'broken', why: c.reason || 'the signature no longer verifies' })
    else if (o.verdict === 'valid' && c.verdict === 'valid' && o.signer && c.signer && !sameMember(o.signer, c.signer))
      out.push({
        ...base,
        change: 'signer',
        why: `it verifies, but now names ${describeMember(c.signer)} instead of ${describeMember(o.signer)}: an ECDSA signature recovers a signer from the text it is checked against`,
      })
    else if (o.verdict === 'invalid' && c.verdict === 'valid')
      out.push({
        ...base,
        change: 'fixed',
        why: `it verifies again${c.signer ? `, by ${describeMember(c.signer)}` : ''}`,
      })
  }
  return out
}

/** The edited log against the original, update by update (matched by sequence id). */
export function whatChanged<S, D>(
  original: { readonly steps: readonly ComparedStep[]; readonly head: S },
  edited: { readonly steps: readonly ComparedStep[]; readonly head: S },
  diffStates: (before: S, after: S) => D,
): WhatChanged<D> {
  const before = new Map(original.steps.map((s) => [s.sequenceId, s]))
  const after = new Map(edited.steps.map((s) => [s.sequenceId, s]))
  const seqs = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
  const verdicts: VerdictChange[] = []
  const texts: TextChange[] = []
  const signatures: SignatureChange[] = []
  for (const seq of seqs) {
    const b = before.get(seq)
    const a = after.get(seq)
    if (!b || !a || b.status !== a.status || b.rule !== a.rule)
      verdicts.push({ sequenceId: seq, before: b ? verdictOf(b) : null, after: a ? verdictOf(a) : null })
    if (!b || !a) continue
    if (b.signatureText !== null && a.signatureText !== null && b.signatureText !== a.signatureText) {
      const segments = charDiff(b.signatureText, a.signatureText)
      texts.push({ sequenceId: seq, segments, removed: count(segments, 'del'), inserted: count(segments, 'ins') })
    }
    signatures.push(...signatureChanges(seq, b, a))
  }
  return { verdicts, texts, signatures, head: diffStates(original.head, edited.head) }
}
