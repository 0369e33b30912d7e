/**
 * An injected EIP-1193 wallet for e2e tests, announced by EIP-6963 and answered in Node
 * by a viem account (browser.md §6 (b)): no test code in the app, the key stays in Node.
 *
 *   const wallet = await installWallet(page)        // before page.goto
 *   await page.goto('/')
 *   await connectWallet(page)
 *   expect(wallet.personalSignCount()).toBe(1)
 *
 * Answers: eth_requestAccounts and wallet_requestPermissions authorize the site;
 * eth_accounts returns the account only once authorized (browser.md §9.4: otherwise
 * wagmi reconnects on mount before the test clicks); wallet_revokePermissions
 * de-authorizes; eth_chainId 0x7a69; personal_sign [hexUtf8Message, address] signs the raw
 * bytes with EIP-191; anything else is EIP-1193 4200. Errors travel as
 * `{ error: { code, message } }` (a thrown error loses its code through the binding) and
 * are rethrown in the page with their code.
 */
import type { Page } from '@playwright/test'
import type { Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { expect } from '../fixtures'

// Code inside addInitScript runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, CustomEvent: any

/** Anvil's first development account (test only, public). */
const ANVIL_KEY_0: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

export interface TestWallet {
  /** The account answering now, lowercase 0x. */
  readonly address: Hex
  /** Every method the page called, in order. */
  readonly calls: string[]
  personalSignCount(): number
  /** The next personal_sign fails with this EIP-1193 code (4001: the user rejected). */
  rejectNext(code?: number): void
  /** From now on answer (accounts and signatures) as this account. */
  switchAccount(privateKey: Hex): void
  /** True once the page was authorized (eth_requestAccounts / wallet_requestPermissions). */
  authorized(): boolean
}

export interface InstallWalletOptions {
  privateKey?: Hex
  name?: string
  rdns?: string
}

const ICON = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" rx="3" fill="#1f5fbf"/></svg>').toString('base64')}`

let bindings = 0

export async function installWallet(page: Page, opts: InstallWalletOptions = {}): Promise<TestWallet> {
  let account: PrivateKeyAccount = privateKeyToAccount(opts.privateKey ?? ANVIL_KEY_0)
  let authorized = false
  let rejectCode: number | null = null
  let signs = 0
  const calls: string[] = []
  const binding = `__e2eWalletRequest${bindings++ === 0 ? '' : bindings}`

  await page.exposeBinding(binding, async (_source, req: { method: string; params?: unknown[] }) => {
    const { method, params = [] } = req
    calls.push(method)
    const fail = (code: number, message: string) => ({ error: { code, message } })
    switch (method) {
      case 'eth_requestAccounts':
        authorized = true
        return { result: [account.address] }
      case 'eth_accounts':
        return { result: authorized ? [account.address] : [] }
      case 'eth_chainId':
        return { result: '0x7a69' }
      case 'net_version':
        return { result: '31337' }
      case 'wallet_requestPermissions':
        authorized = true
        return {
          result: [
            {
              parentCapability: 'eth_accounts',
              caveats: [{ type: 'restrictReturnedAccounts', value: [account.address] }],
            },
          ],
        }
      case 'wallet_getPermissions':
        return {
          result: authorized
            ? [
                {
                  parentCapability: 'eth_accounts',
                  caveats: [{ type: 'restrictReturnedAccounts', value: [account.address] }],
                },
              ]
            : [],
        }
      case 'wallet_revokePermissions':
        authorized = false
        return { result: null }
      case 'personal_sign': {
        signs++
        if (!authorized) return fail(4100, 'The requested account and/or method has not been authorized by the user.')
        if (rejectCode !== null) {
          const code = rejectCode
          rejectCode = null
          return fail(code, code === 4001 ? 'User rejected the request.' : `request failed with code ${code}`)
        }
        const raw = params[0]
        if (typeof raw !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(raw))
          return fail(-32602, 'personal_sign: params[0] is not hex')
        return { result: await account.signMessage({ message: { raw: raw as Hex } }) }
      }
      default:
        return fail(4200, `The E2E wallet does not support ${method}`)
    }
  })

  await page.addInitScript(
    ({ binding, name, rdns, icon }: { binding: string; name: string; rdns: string; icon: string }) => {
      const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
      const provider = {
        isE2EWallet: true,
        async request(args: { method: string; params?: unknown[] }) {
          const answer = await window[binding]({ method: args.method, params: args.params ?? [] })
          if (answer?.error) {
            const err = new Error(answer.error.message) as Error & { code?: number }
            err.code = answer.error.code
            throw err
          }
          return answer.result
        },
        on(event: string, fn: (...args: unknown[]) => void) {
          if (!listeners.has(event)) listeners.set(event, new Set())
          listeners.get(event)!.add(fn)
          return provider
        },
        removeListener(event: string, fn: (...args: unknown[]) => void) {
          listeners.get(event)?.delete(fn)
          return provider
        },
      }
      const detail = Object.freeze({ info: Object.freeze({ uuid: crypto.randomUUID(), name, rdns, icon }), provider })
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
      window.ethereum ??= provider
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { binding, name: opts.name ?? 'E2E Wallet', rdns: opts.rdns ?? 'dev.e2e.wallet', icon: ICON },
  )

  return {
    get address() {
      return account.address.toLowerCase() as Hex
    },
    calls,
    personalSignCount: () => signs,
    rejectNext(code = 4001) {
      rejectCode = code
    },
    switchAccount(privateKey: Hex) {
      account = privateKeyToAccount(privateKey)
    },
    authorized: () => authorized,
  }
}

/** Connects the installed wallet in the Signers panel (its accounts listed), then closes the panel. */
export async function connectWallet(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Signers…' }).click()
  await page.getByRole('button', { name: 'Connect E2E Wallet' }).click()
  await expect(page.getByRole('list', { name: 'Accounts of E2E Wallet' })).toBeVisible()
  await page.getByRole('button', { name: 'Close the signers panel' }).click()
}
