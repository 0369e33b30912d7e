import { readSetting, writeSetting } from '../../model/setting'
import { mapStorage, refusing } from '../../model/storage-doubles'
import { describe, expect, it } from 'vitest'
import { memberKey } from '../../../core/types'
import {
  createSigningClient,
  DEFAULT_MAX_INSTALLATIONS,
  ethKeySigner,
  installationKeySigner,
  RegistrationError,
  virtualClock,
  type RegistrationProgress,
  type Signer,
} from '../../../signing'
import { T0, testKey } from '../../../signing/testkit'
import {
  createPreAuthGate,
  describeOutcome,
  describeProgress,
  CEILING_SETTING,
  parseCeiling,
  PreAuthCancelled,
  type PreAuthPrompt,
} from './registration-flow'

const wallet = ethKeySigner(testKey('reg wallet'))
const installation = installationKeySigner(testKey('reg installation'))

/** A signer that records when it is asked. */
function recording(s: Signer, log: string[], name: string): Signer {
  return { ...s, sign: (t) => (log.push(`${name} asked`), s.sign(t)) }
}

/** The registration as the composer wires it: a gate as the handler, a local "publish" that stores at 1. */
function wired(log: string[], answer: (gate: ReturnType<typeof createPreAuthGate>, prompt: PreAuthPrompt) => void) {
  const gate = createPreAuthGate((p) => {
    log.push(p ? `prompt ${p.message}` : 'prompt closed')
    if (p) queueMicrotask(() => answer(gate, p))
  })
  const client = createSigningClient({
    preAuthenticate: gate.handler(() => 'the wallet will be asked next'),
    clock: virtualClock(),
  })
  let stored = 0n
  const run = (state: Parameters<typeof client.registerInstallation>[0]['state']) =>
    client.registerInstallation({
      state,
      installation: recording(installation, log, 'installation') as typeof installation,
      authorizer: recording(wallet, log, 'wallet'),
      clientTimestampNs: T0,
      publish: async () => (log.push('published'), { sequenceId: (stored = 1n) }),
      queryNewest: async () => stored,
      onProgress: (e: RegistrationProgress) => {
        const line = describeProgress(e)
        if (line) log.push(line)
      },
    })
  return { gate, run }
}

describe('createPreAuthGate as the registration handler', () => {
  it('IDENT-073: the prompt is shown and answered before any signer is asked', async () => {
    const log: string[] = []
    const { run } = wired(log, (g) => g.confirm())
    const r = await run(null)
    expect(r.status).toBe('registered')
    const prompt = log.indexOf('prompt the wallet will be asked next')
    const closed = log.indexOf('prompt closed')
    const asked = log.indexOf('wallet asked')
    expect(prompt).toBeGreaterThanOrEqual(0)
    expect(prompt).toBeLessThan(closed)
    expect(closed).toBeLessThan(asked)
    expect(log).toContain('Registration complete at sequence id 1')
    expect(describeOutcome({ ok: true, result: r })).toMatch(
      /^Registered installation .* at sequence id 1; visible at 1 \(IDENT-072\)/,
    )
  })

  it('IDENT-075: cancelling the prompt signs nothing and reports a callback failure', async () => {
    const log: string[] = []
    const { run } = wired(log, (g) => g.cancel())
    const err = await run(null).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RegistrationError)
    expect((err as RegistrationError).code).toBe('callback_failed')
    expect((err as RegistrationError).cause).toBeInstanceOf(PreAuthCancelled)
    expect(log.filter((l) => l.endsWith('asked') || l === 'published')).toEqual([])
    expect(describeOutcome({ ok: false, error: err })).toBe(
      'Callback failure (IDENT-075): the pre-authentication handler failed: the user cancelled the pre-authentication prompt. Nothing was signed.',
    )
  })

  it('IDENT-074: an installation already a member shows no prompt and signs nothing', async () => {
    const log: string[] = []
    const first = wired(log, (g) => g.confirm())
    const r = await first.run(null)
    log.length = 0
    const again = await first.run(r.state)
    expect(again.status).toBe('already_member')
    expect(log.some((l) => l.startsWith('prompt'))).toBe(false)
    expect(log.some((l) => l.endsWith('asked'))).toBe(false)
    expect(describeOutcome({ ok: true, result: again })).toMatch(/IDENT-074/)
  })

  it('CONF-044: the configured ceiling stops a registration before the prompt, with the reason', async () => {
    const log: string[] = []
    const first = wired(log, (g) => g.confirm())
    const r = await first.run(null) // one installation now
    expect([...r.state.members.keys()]).toContain(memberKey(installation.identifier))
    const other = installationKeySigner(testKey('second installation'))
    log.length = 0
    const gate = createPreAuthGate(() => log.push('prompt'))
    const err = await createSigningClient({ preAuthenticate: gate.handler(() => 'x'), maxInstallations: 1 })
      .registerInstallation({
        state: r.state,
        installation: other,
        authorizer: wallet,
        publish: async () => ({ sequenceId: 2n }),
        queryNewest: async () => 2n,
      })
      .catch((e: unknown) => e)
    expect((err as RegistrationError).code).toBe('installation_ceiling')
    expect(describeOutcome({ ok: false, error: err })).toMatch(
      /^Stopped by the installation ceiling: .*already has 1 installation, and this client registers no more than 1 \(CONF-044\)/,
    )
    expect(log).toEqual([]) // no prompt was shown, no signer asked
    expect(gate.current).toBeNull()
  })

  it('a second prompt cancels one still open', async () => {
    const gate = createPreAuthGate(() => {})
    const first = gate.handler(() => 'one')()
    const second = gate.handler(() => 'two')()
    await expect(first).rejects.toBeInstanceOf(PreAuthCancelled)
    expect(gate.current?.message).toBe('two')
    gate.confirm()
    await expect(second).resolves.toBeUndefined()
    expect(gate.current).toBeNull()
  })
})

describe('parseCeiling, CEILING_SETTING', () => {
  it.each([
    ['10', 10],
    [' 3 ', 3],
    ['1000', 1000],
  ])('accepts %j', (t, v) => expect(parseCeiling(t)).toEqual({ ok: true, value: v }))
  it.each([
    ['0', /at least 1/],
    ['1001', /at most 1000/],
    ['ten', /not a whole number/],
    ['', /not a whole number/],
    ['2.5', /not a whole number/],
  ])('refuses %j', (t, why) => {
    const r = parseCeiling(t)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.problem).toMatch(why)
  })
  it('defaults to CONF-044’s 10 and keeps a saved value (src/app/model/setting.ts)', () => {
    const storage = mapStorage()
    expect(readSetting(CEILING_SETTING, storage)).toBe(DEFAULT_MAX_INSTALLATIONS)
    writeSetting(CEILING_SETTING, 3, storage)
    expect(storage.m.get(CEILING_SETTING.key)).toBe('3')
    expect(readSetting(CEILING_SETTING, storage)).toBe(3)
    expect(readSetting(CEILING_SETTING, mapStorage([[CEILING_SETTING.key, '1001']]))).toBe(10)
    expect(readSetting(CEILING_SETTING, refusing)).toBe(10)
  })
})
