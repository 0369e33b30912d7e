import { memo } from 'react'
import type { AssociationState, MemberId } from '../../../../core/types'
import { MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import type { RowMark, StateDiff } from '../../../model/state-diff'
import { layoutTree } from '../tree-layout'
import { sortedMembers } from '../sorted'

const COL = 172
const ROW = 30
const W = 152
const H = 22
const PAD = 8

/** Who added whom: wallets and passkeys with the installations they added; this step's change highlighted. */
export function AdderTree({
  state,
  before,
  diff,
}: {
  state: AssociationState | null
  before: AssociationState | null
  diff: StateDiff
}) {
  const t = layoutTree(state, diff, 120, state ? sortedMembers(state.members, before?.members, diff) : undefined)
  const pos = new Map(t.nodes.map((n) => [n.key, n]))
  const width = (t.depth + 1) * COL + PAD * 2
  const height = Math.max(1, t.rows) * ROW + PAD * 2
  const added = t.nodes.filter((n) => n.mark === 'added').length
  const removed = t.nodes.filter((n) => n.mark === 'removed').length
  const summary = `${t.nodes.filter((n) => !n.ghost).length} members${added ? `, ${added} added by this step` : ''}${removed ? `, ${removed} removed by this step` : ''}`
  return (
    <section className="panel tree" aria-labelledby="tree-title">
      <h2 id="tree-title">Who added whom</h2>
      {t.nodes.length === 0 ? (
        <p className="empty">No members.</p>
      ) : (
        <div className="tree-scroll" tabIndex={0} role="group" aria-label="Who added whom (scrollable)">
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`Who added whom: ${summary}`}
          >
            <title>{`Who added whom: ${summary}`}</title>
            {t.nodes.map((n) => {
              if (!n.parent) return null
              const p = pos.get(n.parent)
              if (!p) return null
              const x1 = PAD + p.depth * COL + W
              const y1 = PAD + p.row * ROW + H / 2
              const x2 = PAD + n.depth * COL
              const y2 = PAD + n.row * ROW + H / 2
              const mx = (x1 + x2) / 2
              return <Edge key={`e-${n.key}`} mark={n.mark} d={`M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`} />
            })}
            {t.nodes.map((n) => (
              <Node
                key={n.key}
                x={PAD + n.depth * COL}
                y={PAD + n.row * ROW}
                kind={n.id.kind}
                text={n.id.text}
                mark={n.mark}
                ghost={n.ghost}
              />
            ))}
          </svg>
        </div>
      )}
      <p className="legend muted">
        W wallet · P passkey · I installation · <span className="lg-added">added</span> ·{' '}
        <span className="lg-removed">removed</span> by this step
        {t.hidden ? ` · ${t.hidden} unchanged installations not drawn` : ''}
      </p>
    </section>
  )
}

/**
 * One edge and one node of the picture, by value: a step redraws the nodes and edges it
 * moved or marked, and the rest (most of a large state's picture) skip rendering.
 */
const Edge = memo(function Edge({ d, mark }: { d: string; mark: RowMark | null }) {
  return <path className={`edge${mark ? ` mark-${mark}` : ''}`} d={d} />
})

const Node = memo(function Node({
  x,
  y,
  kind,
  text,
  mark,
  ghost,
}: {
  x: number
  y: number
  kind: MemberId['kind']
  text: string
  mark: RowMark | null
  ghost: boolean
}) {
  return (
    <g
      className={`node kind-${kind}${mark ? ` mark-${mark}` : ''}${ghost ? ' ghost' : ''}`}
      transform={`translate(${x},${y})`}
    >
      <title>{`${MEMBER_KIND_LABEL[kind]} ${text}${mark ? ` (${mark} by this step)` : ''}${ghost && !mark ? ' (not a member)' : ''}`}</title>
      <rect width={W} height={H} rx={4} />
      <text x={6} y={15} className="node-kind">
        {kind === 'ethereum' ? 'W' : kind === 'passkey' ? 'P' : 'I'}
      </text>
      <text x={20} y={15}>
        {shortId(text, 8, 4)}
        {mark === 'added' ? ' +' : mark === 'removed' ? ' −' : ''}
      </text>
    </g>
  )
})
