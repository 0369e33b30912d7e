import { useMemo, useState } from 'react'
import { bytesToBase64, bytesToHex } from '../../../../crypto/bytes'
import { CopyButton } from '../../../ui/CopyButton'
import { WIRE_TYPE_NAMES, wireTree, type WireNode } from '../wire-tree'

const PREVIEW = 32

function hexOf(b: Uint8Array, from: number, to: number, full: boolean): string {
  const end = full ? to : Math.min(to, from + PREVIEW)
  const h = bytesToHex(b.subarray(from, end)).replace(/(..)/g, '$1 ').trim()
  return end < to ? `${h} … (+${to - end} bytes)` : h
}

function NodeView({ node, bytes }: { node: WireNode; bytes: Uint8Array }) {
  const [full, setFull] = useState(false)
  const label = node.name ?? `field ${node.no}`
  const head = (
    <span className="wire-line">
      <span className="off" title={`bytes ${node.offset}–${node.end - 1}`}>
        @{node.offset}
      </span>{' '}
      <span className="fname">{label}</span> <span className="muted">#{node.no}</span>{' '}
      <span className="wtype">{WIRE_TYPE_NAMES[node.wireType] ?? node.wireType}</span>{' '}
      <span className="ftype">{node.type}</span> <span className="muted">{node.end - node.valueOffset} B</span>
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
  if (node.children.length === 0)
    return (
      <li className={node.flags.length ? 'flagged' : ''}>
        {head}
        {hex}
      </li>
    )
  return (
    <li className={node.flags.length ? 'flagged' : ''}>
      <details open>
        <summary>{head}</summary>
        {hex}
        <ul className="wire-children">
          {node.children.map((c) => (
            <NodeView key={c.offset} node={c} bytes={bytes} />
          ))}
        </ul>
      </details>
    </li>
  )
}

/** The selected update's protobuf fields, as a tree with byte offsets and hex. */
export function RawView({ bytes, bytesSource }: { bytes: Uint8Array | null; bytesSource?: string | undefined }) {
  const tree = useMemo(() => (bytes ? wireTree(bytes) : null), [bytes])
  return (
    <section className="panel raw" aria-labelledby="raw-title">
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
      {!bytes || !tree ? (
        <p className="empty">This update has no bytes to show (its text was not valid hex or base64).</p>
      ) : (
        <>
          {tree.problem && (
            <p className="note warn" role="note">
              The bytes stop being a well-formed IdentityUpdate at byte {tree.problem.offset}: {tree.problem.detail}
            </p>
          )}
          <ul className="wire-tree" aria-label="Protobuf fields">
            {tree.nodes.map((n) => (
              <NodeView key={n.offset} node={n} bytes={bytes} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
