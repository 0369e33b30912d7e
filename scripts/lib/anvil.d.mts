/** Types of ./anvil.mjs (plain JavaScript, so scripts/start.mjs needs no TypeScript loader). */

export type AnvilErrorCode = 'no_binary' | 'port_in_use' | 'exited' | 'not_ready' | 'spawn_failed'

export class AnvilError extends Error {
  readonly code: AnvilErrorCode
  constructor(code: AnvilErrorCode, message: string)
}

/** The anvil binary of this platform's @foundry-rs/anvil-<platform> package. */
export function anvilBinary(): string

/** A port that was free on 127.0.0.1 a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number>

/** True when nothing listens on 127.0.0.1:port now. */
export function portFree(port: number): Promise<boolean>

export interface AnvilOptions {
  /** The port to bind; default a free one. */
  readonly port?: number
  /** `--chain-id`; anvil's default is 31337. */
  readonly chainId?: number
  /** Extra command-line arguments. */
  readonly args?: readonly string[]
  /** Readiness budget; default 10 s (polls 25 ms apart). */
  readonly readyTimeoutMs?: number
}

export interface AnvilNode {
  readonly url: string
  readonly port: number
  /** anvil's own PID. */
  readonly pid: number
  readonly chainId: number
  alive(): boolean
  /** The last ~2,000 characters anvil wrote to stderr. */
  stderrTail(): string
  /** SIGTERM, SIGKILL after 3 s; resolves when the process has exited. Idempotent. */
  stop(): Promise<void>
  /** Resolves when the process has exited, for whatever reason. */
  readonly exited: Promise<void>
}

/** Starts anvil on 127.0.0.1 and resolves once eth_chainId answers; throws AnvilError. */
export function startAnvil(options?: AnvilOptions): Promise<AnvilNode>
