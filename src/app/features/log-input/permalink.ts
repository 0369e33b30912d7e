/**
 * The permalink codec: the URL fragment carries the log (deflate-raw compressed,
 * base64url) and the selected step, so a shared link holds the whole log and the
 * fragment is never sent to a server. Only what a person would share: never keys.
 *
 *   #log=<base64url deflate-raw of the input bytes>&bin=1&inbox=<n>&step=<seq>.<action>
 *   #example=<gallery name>&step=3.0&tab=diff
 *   #example=<gallery name>&step=3.0&present     (presenter mode, at that step)
 *   #log=…&edited=<edit operations>&orig=<the original's label>&origex=<its gallery name>
 *
 * `bin=1` says the input was binary (a protobuf file), otherwise it is UTF-8 text.
 * `tab` names the open view of the step (the shell knows the names; here it is a word).
 * `edited` marks the log as an edited copy (issue #16), so the badge survives a reload;
 * `orig` and `origex` name its original (the gallery name lets the original reopen).
 */
import { base64ToBytes, base64urlNoPad } from '../../../crypto/bytes'

export class PermalinkError extends Error {
  override readonly name = 'PermalinkError'
}

export interface StepRef {
  readonly sequenceId: bigint
  /** Action index within the update, -1 for the update as a whole. */
  readonly action: number
}

export interface Fragment {
  /** Compressed log (base64url), as it stands in the URL. */
  readonly log?: string
  readonly binary?: boolean
  readonly example?: string
  /** Which log of a multi-inbox input (e.g. a CSV export). */
  readonly inbox?: number
  readonly step?: StepRef
  /** The view of the step the user chose (a lowercase word, e.g. `diff`). */
  readonly tab?: string
  /** Presenter mode: the link opens the log one step per screen. */
  readonly present?: boolean
  /** The log is an edited copy: how many edit operations made it, and its original. */
  readonly edited?: { readonly edits: number; readonly label: string; readonly example?: string }
}

/**
 * The largest compressed log the address bar carries (base64url characters). Longer
 * URLs cost tens of milliseconds per history write and some tools refuse them; a log
 * over it (~1,000 updates) gets no permalink, and the app says so.
 */
export const MAX_FRAGMENT = 256 * 1024

function fromBase64url(s: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(s))
    throw new PermalinkError('the log in the link is not base64url text (it was cut or edited)')
  if (s.length % 4 === 1)
    throw new PermalinkError('the log in the link is cut short (its base64url length is impossible)')
  try {
    return base64ToBytes(s)
  } catch {
    // Only non-zero unused bits in the last character are left to refuse here.
    throw new PermalinkError('the log in the link is not base64url text (it was cut or edited)')
  }
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream))
  return new Uint8Array(await out.arrayBuffer())
}

/** The compressed log as base64url; null when that would be longer than `maxLength` (checked before encoding). */
export async function compressLog(bytes: Uint8Array, maxLength = Infinity): Promise<string | null> {
  const z = await pipe(bytes, new CompressionStream('deflate-raw'))
  if (Math.ceil((z.length * 4) / 3) > maxLength) return null
  return base64urlNoPad(z)
}

export async function decompressLog(z: string): Promise<Uint8Array> {
  const raw = fromBase64url(z)
  try {
    return await pipe(raw, new DecompressionStream('deflate-raw'))
  } catch {
    throw new PermalinkError('the log in the link does not decompress (the link was cut short or altered)')
  }
}

function formatStep(s: StepRef): string {
  return `${s.sequenceId}.${s.action}`
}

function parseStep(v: string): StepRef | undefined {
  const m = /^(\d{1,20})(?:\.(-1|\d{1,4}))?$/.exec(v)
  if (!m) return undefined
  return { sequenceId: BigInt(m[1]!), action: m[2] === undefined ? 0 : Number(m[2]) }
}

/** `#…` → the fragment's parts; unknown or malformed parts are ignored (a step that does not parse is dropped). */
export function parseFragment(hash: string): Fragment {
  const h = hash.startsWith('#') ? hash.slice(1) : hash
  const out: { -readonly [K in keyof Fragment]: Fragment[K] } = {}
  for (const part of h.split('&')) {
    if (part === 'present' || part === 'present=1') {
      out.present = true
      continue
    }
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const k = part.slice(0, eq)
    const v = part.slice(eq + 1)
    if (k === 'log' && v) out.log = v
    else if (k === 'bin') out.binary = v === '1'
    else if (k === 'example' && v) out.example = decodeURIComponent(v)
    else if (k === 'inbox' && /^\d{1,6}$/.test(v)) out.inbox = Number(v)
    else if (k === 'tab' && /^[a-z]{1,16}$/.test(v)) out.tab = v
    else if (k === 'edited' && /^\d{1,6}$/.test(v)) out.edited = { edits: Number(v), label: 'a log', ...out.edited }
    else if (k === 'orig' && v) out.edited = { edits: 0, ...out.edited, label: safeDecode(v) }
    else if (k === 'origex' && v) out.edited = { edits: 0, label: 'a log', ...out.edited, example: safeDecode(v) }
    else if (k === 'step') {
      const s = parseStep(v)
      if (s) out.step = s
    }
  }
  // orig / origex alone do not mark a log as edited: `edited` does.
  if (out.edited && !/(^|&)edited=\d/.test(h)) delete out.edited
  return out
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v).slice(0, 200)
  } catch {
    return v.slice(0, 200)
  }
}

export function formatFragment(f: Fragment): string {
  const parts: string[] = []
  if (f.example) parts.push(`example=${encodeURIComponent(f.example)}`)
  else if (f.log) {
    parts.push(`log=${f.log}`)
    if (f.binary) parts.push('bin=1')
  }
  if (f.edited && f.log) {
    parts.push(`edited=${f.edited.edits}`, `orig=${encodeURIComponent(f.edited.label)}`)
    if (f.edited.example) parts.push(`origex=${encodeURIComponent(f.edited.example)}`)
  }
  if (f.inbox !== undefined && f.inbox > 0) parts.push(`inbox=${f.inbox}`)
  if (f.step) parts.push(`step=${formatStep(f.step)}`)
  if (f.tab) parts.push(`tab=${f.tab}`)
  if (f.present) parts.push('present')
  return parts.length ? `#${parts.join('&')}` : ''
}
