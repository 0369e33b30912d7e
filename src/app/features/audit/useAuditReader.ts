/**
 * Reading an audit report into the view: one read at a time (a new one cancels the
 * last), its progress, the report, or why it failed. A thin hook over readReport.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { AuditReport } from './aggregate'
import { ReadCancelled, type ReadProgress, readReport } from './read-report'

export type ReaderState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'reading'; readonly name: string; readonly progress: ReadProgress }
  | { readonly phase: 'done'; readonly name: string; readonly report: AuditReport }
  | { readonly phase: 'failed'; readonly name: string; readonly message: string }

export function useAuditReader() {
  const [state, setState] = useState<ReaderState>({ phase: 'idle' })
  const current = useRef<AbortController | null>(null)
  useEffect(() => () => current.current?.abort(), [])

  const read = useCallback(async (name: string, input: ReadableStream<Uint8Array> | string, total?: number) => {
    current.current?.abort()
    const ac = new AbortController()
    current.current = ac
    setState({ phase: 'reading', name, progress: { lines: 0, bytes: 0, total: total ?? null } })
    try {
      const report = await readReport(input, {
        signal: ac.signal,
        ...(total !== undefined ? { total } : {}),
        onProgress: (progress) => {
          if (!ac.signal.aborted) setState({ phase: 'reading', name, progress })
        },
      })
      if (ac.signal.aborted) return
      setState(
        report.rows.length === 0 && report.summary === null && report.errorCount === 0
          ? { phase: 'failed', name, message: `${name} is empty: an audit report has one JSON object per line` }
          : { phase: 'done', name, report },
      )
    } catch (e) {
      if (e instanceof ReadCancelled) setState({ phase: 'idle' })
      else if (!ac.signal.aborted)
        setState({
          phase: 'failed',
          name,
          message: `${name} could not be read: ${e instanceof Error ? e.message : String(e)}`,
        })
    }
  }, [])

  const cancel = useCallback(() => {
    current.current?.abort()
    setState({ phase: 'idle' })
  }, [])

  return { state, read, cancel }
}
