import { useEffect, useMemo, useState } from 'react'
import { bytesToBase64, bytesToHex } from '../../../../crypto/bytes'
import { type Linked, partKey, partOfFieldPath, samePart, useLinked } from '../../../model/linked'
import { CopyButton } from '../../../ui/CopyButton'
import { linkHandlers } from '../../../ui/Linked'
import type { WireNode, WireTree } from '../wire-tree'

/** The wire-format reader (protobuf's runtime and the update's schema): a chunk loaded when a Raw view first shows. */
interface WireModule {
  readonly wireTree: (bytes: Uint8Array) => WireTree
  readonly names: Readonly<Record<number, string>>
}
let wireModule: WireModule | null = null

function useWireModule(): { mod: WireModule | null; error: string | null } {
  const [mod, setMod] = useState(wireModule)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (mod) return
    let live = true
    import('../wire-tree').then(
      ({ wireTree, WIRE_TYPE_NAMES }) => {
        wireModule = { wireTree: (bytes) => wireTree(bytes), names: WIRE_TYPE_NAMES }
        if (live) setMod(wireModule)
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    )
    return () => {
      live = false
    }
  }, [mod])
  return { mod, error }
}

const PREVIEW = 32

function hexOf(b: Uint8Array, from: number, to: number, full: boolean): string {
  const end = full ? to : Math.min(to, from + PREVIEW)
  const h = bytesToHex(b.subarray(from, end)).replace(/(..)/g, '$1 ').trim()
  return end < to ? `${h} … (+${to - end} bytes)` : h
}

/** A top-level field's linked part (an action, the inbox id, the time): its class and data-part. */
function linkOf(node: WireNode, linked: Linked, top: boolean) {
  const part = top ? partOfFieldPath(node.path) : null
  if (!part) return { className: '' }
  const selected = part.kind === 'action' && part.index === linked.selectedAction
  return {
    className: `${samePart(linked.hover, part) ? ' linked' : ''}${selected ? ' selected-part' : ''}`,
    'data-part': partKey(part),
    ...(selected ? { 'aria-current': 'true' as const } : {}),
  }
}

function NodeView({
  node,
  bytes,
  names,
  top = false,
}: {
  node: WireNode
  bytes: Uint8Array
  names: WireModule['names']
  top?: boolean
}) {
  const [full, setFull] = useState(false)
  const { className: linkClass, ...link } = linkOf(node, useLinked(), top)
  const label = node.name ?? `field ${node.no}`
  const head = (
    <span className="wire-line">
      <span className="off" title={`bytes ${node.offset}–${node.end - 1}`}>
        @{node.offset}
      </span>{' '}
      <span className="fname">{label}</span> <span className="muted">#{node.no}</span>{' '}
      <span className="wtype">{names[node.wireType] ?? node.wireType}</span> <span className="ftype">{node.type}</span>{' '}
      <span className="muted">{node.end - node.valueOffset} B</span>
      {node.value !== null && <span className="fval">{node.value}</span>}
      {node.flags.map((f) => (
        <span key={f} className={`badge flag-${f}`}>
          {f === 'retired' ? 'retired field 4' : f}
        </span>
      ))}
    </span>
  )
  const hex = (
    <div className="wire-hex">
      <code className="hdr" title="tag and length">
        {hexOf(bytes, node.offset, node.valueOffset, true)}
      </code>{' '}
      {node.children.length === 0 && <code className="val">{hexOf(bytes, node.valueOffset, node.end, full)}</code>}
      {node.children.length === 0 && node.end - node.valueOffset > PREVIEW && (
        <button
          type="button"
          className="link"
          onClick={() => setFull(!full)}
          aria-label={`${full ? 'Shorten' : 'Show all'} bytes of ${node.path}`}
        >
          {full ? 'less' : 'all bytes'}
        </button>
      )}
      {node.note && <div className="wire-note">{node.note}</div>}
    </div>
  )
  const cls = `${node.flags.length ? 'flagged' : ''}${linkClass}`.trim() || undefined
  if (node.children.length === 0)
    return (
      <li className={cls} {...link}>
        {head}
        {hex}
      </li>
    )
  return (
    <li className={cls} {...link}>
      <details open>
        <summary>{head}</summary>
        {hex}
        <ul className="wire-children">
          {node.children.map((c) => (
            <NodeView key={c.offset} node={c} bytes={bytes} names={names} />
          ))}
        </ul>
      </details>
    </li>
  )
}

/** Where the hovered part (or else the selected action) lies in the bytes. */
function PartRange({ tree, linked }: { tree: WireTree; linked: Linked }) {
  const want =
    linked.hover ?? (linked.selectedAction >= 0 ? { kind: 'action' as const, index: linked.selectedAction } : null)
  const node = want ? tree.nodes.find((n) => samePart(partOfFieldPath(n.path), want)) : undefined
  if (!want || !node) return null
  const name = want.kind === 'action' ? `action ${want.index}` : want.kind
  return (
    <p className="caption part-range" aria-live="polite">
      {linked.hover ? 'Pointed at' : 'Selected'}: <strong>{name}</strong>, bytes {node.offset}–{node.end - 1} (
      {node.end - node.offset} bytes, field {node.no})
    </p>
  )
}

/** The selected update's protobuf fields, as a tree with byte offsets and hex. */
export function RawView({ bytes, bytesSource }: { bytes: Uint8Array | null; bytesSource?: string | undefined }) {
  const { mod, error } = useWireModule()
  const tree = useMemo(() => (bytes && mod ? mod.wireTree(bytes) : null), [bytes, mod])
  const linked = useLinked()
  return (
    <section className="panel raw" aria-labelledby="raw-title" {...linkHandlers(linked)}>
      <div className="panel-head">
        <h2 id="raw-title">Raw update (protobuf)</h2>
        {bytes && (
          <>
            <span className="muted">
              {bytes.length} bytes
              {bytesSource === 'canonical-encoding' ? ' · canonical encoding of a proto3 JSON update' : ''}
            </span>
            <CopyButton text={bytesToHex(bytes)} what="update as hex" label="copy hex" />
            <CopyButton text={bytesToBase64(bytes)} what="update as base64" label="copy base64" />
          </>
        )}
      </div>
      {bytes && error ? (
        <p className="note warn" role="alert">
          The protobuf reader did not load ({error}); reload the page to try again.
        </p>
      ) : bytes && !mod ? (
        <p className="muted">Loading the protobuf reader…</p>
      ) : !bytes || !tree || !mod ? (
        <p className="empty">This update has no bytes to show (its text was not valid hex or base64).</p>
      ) : (
        <>
          {tree.problem && (
            <p className="note warn" role="note">
              The bytes stop being a well-formed IdentityUpdate at byte {tree.problem.offset}: {tree.problem.detail}
            </p>
          )}
          <PartRange tree={tree} linked={linked} />
          <ul className="wire-tree" aria-label="Protobuf fields">
            {tree.nodes.map((n) => (
              <NodeView key={n.offset} node={n} bytes={bytes} names={mod.names} top />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
