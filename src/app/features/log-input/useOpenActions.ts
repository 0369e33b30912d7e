/**
 * What the user opens by hand (the Open drawer and a file dropped on the page): a paste,
 * a file, a URL, a gallery example. Each is the user's own act (./start-guard.ts: it wins
 * over what the app is loading by itself) and a successful open closes the drawer.
 */
import { type DragEvent, useCallback } from 'react'
import type { OpenOptions, Source } from '../../trace/useInspector'
import type { StartGuard } from './start-guard'
import type { Example } from './gallery'

/** The largest file the inspector opens (64 MiB). */
export const MAX_FILE = 64 * 1024 * 1024

/** A file as a log source, or why it cannot be opened (too large, unreadable). */
export async function fileSource(
  file: Pick<File, 'name' | 'size' | 'arrayBuffer'>,
): Promise<Source | { readonly label: string; readonly message: string }> {
  const label = `file ${file.name}`
  if (file.size > MAX_FILE)
    return { label, message: `${file.name} is ${file.size} bytes; the inspector opens files up to ${MAX_FILE} bytes` }
  try {
    const input = new Uint8Array(await file.arrayBuffer())
    return { kind: 'file', label, name: file.name, input, verifier: 'none' }
  } catch (e) {
    return { label, message: `${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}` }
  }
}

export interface OpenActionsOptions {
  readonly guard: StartGuard
  readonly open: (source: Source, options?: OpenOptions) => Promise<boolean>
  readonly problem: (p: { readonly label: string; readonly message: string }) => void
  readonly closePanel: () => void
  /** From useAddressOpening. */
  readonly openExample: (ex: Example) => void
  readonly openUrl: (url: string) => void
}

export function useOpenActions({ guard, open, problem, closePanel, openExample, openUrl }: OpenActionsOptions) {
  const onPaste = useCallback(
    (text: string) => {
      const source: Source = { kind: 'paste', label: 'The pasted text', name: 'pasted', input: text, verifier: 'none' }
      void guard.userOpen('paste', () => open(source)).then((ok) => ok && closePanel())
    },
    [open, guard, closePanel],
  )
  const onFile = useCallback(
    (file: File) => {
      // The app's own loads give way as the file is picked, not once it has been read.
      guard.userActed('file')
      void (async () => {
        const s = await fileSource(file)
        if (!('kind' in s)) problem(s)
        else if (await guard.userOpen('file', () => open(s))) closePanel()
      })()
    },
    [open, problem, guard, closePanel],
  )
  // A file dropped anywhere on the page, unless something inside handled it first.
  const onDrop = useCallback(
    (e: DragEvent) => {
      if (e.defaultPrevented) return
      const f = e.dataTransfer.files[0]
      if (f) {
        e.preventDefault()
        onFile(f)
      }
    },
    [onFile],
  )
  return { onPaste, onFile, onUrl: openUrl, onExample: openExample, onDrop }
}
