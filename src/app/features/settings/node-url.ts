/**
 * The node URL setting: the local node by default (`npm start` passes its URL as
 * VITE_NODE_URL), any URL the user enters, persisted in localStorage. A `?node=URL`
 * query parameter (tests, shared links) overrides and is saved on first read.
 */
import { useCallback, useState } from 'react'
import { readSetting, type SettingSpec, writeSetting } from '../../model/setting'

const KEY = 'inbox-inspector.node-url'
const FALLBACK_NODE_URL = 'http://127.0.0.1:8787'

/** The node `npm start` started, when it did (empty when it failed to start). */
const LOCAL_NODE_URL: string = (import.meta.env.VITE_NODE_URL as string | undefined) ?? ''

export function defaultNodeUrl(): string {
  return LOCAL_NODE_URL || FALLBACK_NODE_URL
}

/** Returns the message of a URL that cannot be a node's base URL, else null. */
function nodeUrlProblem(url: string): string | null {
  try {
    const u = new URL(url)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `a node URL is http: or https:, not ${u.protocol}`
    return null
  } catch {
    return `${JSON.stringify(url)} is not a URL`
  }
}

/** The URL the user saved; null (none saved) stands for the default. */
const NODE_URL: SettingSpec<string | null> = {
  key: KEY,
  parse: (url) => (nodeUrlProblem(url) ? undefined : url),
  format: (url) => url,
  fallback: () => null,
}

function readNodeUrl(): string {
  const fromQuery = new URLSearchParams(location.search).get('node')
  if (fromQuery && !nodeUrlProblem(fromQuery)) {
    writeSetting(NODE_URL, fromQuery)
    return fromQuery
  }
  return readSetting(NODE_URL) ?? defaultNodeUrl()
}

/** Saves a node URL (null: back to the default). */
function writeNodeUrl(url: string | null): void {
  writeSetting(NODE_URL, url)
}

export function useNodeUrl(): [string, (url: string | null) => void] {
  const [url, setUrl] = useState(readNodeUrl)
  const set = useCallback((next: string | null) => {
    writeNodeUrl(next)
    setUrl(next ?? defaultNodeUrl())
  }, [])
  return [url, set]
}
