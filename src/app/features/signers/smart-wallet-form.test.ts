import { describe, expect, it } from 'vitest'
import { parseSalt, parseSmartWalletForm, type SmartWalletForm } from './smart-wallet-form'
import type { SmartWalletRecord } from './smart-wallet-record'
import { FACTORY, owner, record, SALT1, WALLET } from './smart-wallets.testkit'

const form = (over: Partial<SmartWalletForm> = {}): SmartWalletForm => ({
  chainId: '31337',
  owner: owner.id,
  mode: 'deployed',
  address: WALLET,
  factory: '',
  salt: '',
  label: '',
  ...over,
})
const ROUTES = new Map([[31337n, 'http://127.0.0.1:8545']])

describe('parseSalt', () => {
  it('reads a decimal number or 32 bytes of hex as the factory word', () => {
    expect(parseSalt('1')).toBe(SALT1)
    expect(parseSalt(` 0x${'AB'.repeat(32)} `)).toBe(`0x${'ab'.repeat(32)}`)
  })
  it('names what is wrong', () => {
    expect(parseSalt('')).toEqual({ problem: expect.stringMatching(/the salt is empty/) })
    expect(parseSalt('-1')).toEqual({
      problem: expect.stringMatching(/neither a decimal whole number nor 0x \+ 64 hex digits/),
    })
    expect(parseSalt('0x01')).toEqual({ problem: expect.stringMatching(/neither/) })
    expect(parseSalt((1n << 256n).toString())).toEqual({ problem: expect.stringMatching(/does not fit in 32 bytes/) })
  })
})

describe('parseSmartWalletForm', () => {
  const ctx = { routes: ROUTES, owners: [owner], kept: [] as SmartWalletRecord[] }
  it('gives the route, the owner and a lowercase address for a deployed wallet', () => {
    const p = parseSmartWalletForm(form({ address: WALLET.toUpperCase().replace('0X', '0x'), label: ' a ' }), ctx)
    expect(p).toEqual({
      ok: true,
      chainId: '31337',
      route: { chainId: 31337n, url: 'http://127.0.0.1:8545' },
      owner: owner.id,
      label: 'a',
      wallet: { mode: 'deployed', address: WALLET },
    })
  })
  it('gives the factory and the salt word for a counterfactual wallet', () => {
    const p = parseSmartWalletForm(form({ mode: 'counterfactual', factory: FACTORY, salt: '1' }), ctx)
    expect(p.ok && p.wallet).toEqual({ mode: 'counterfactual', factory: FACTORY, salt: SALT1 })
  })
  it('refuses a chain with no route (IDENT-061), naming the chain', () => {
    const p = parseSmartWalletForm(form({ chainId: '8453' }), ctx)
    expect(p).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(
          /^no chain route for eip155:8453: add one under Settings › Chain routes first \(IDENT-061/,
        ),
      ],
    })
  })
  it('refuses an owner that is not available now', () => {
    const p = parseSmartWalletForm(form({ owner: `wallet:${`0x${'12'.repeat(20)}`}` }), ctx)
    expect(p.ok ? [] : p.problems).toEqual([
      `owner ${`0x${'12'.repeat(20)}`} is not available in this browser now (connect its wallet or import its key)`,
    ])
  })
  it('lists every problem at once: chain, owner, factory and salt', () => {
    const p = parseSmartWalletForm(
      form({ chainId: '', owner: '', mode: 'counterfactual', factory: '0x12', salt: 'x' }),
      ctx,
    )
    expect(p.ok ? [] : p.problems.length).toBe(4)
  })
  it('refuses a wallet already kept on that chain', () => {
    const p = parseSmartWalletForm(form(), { ...ctx, kept: [record()] })
    expect(p.ok ? [] : p.problems).toEqual([`smart wallet ${WALLET} on eip155:31337 is already kept here`])
  })
})
