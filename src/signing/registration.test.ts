import { describe, expect, it } from 'vitest'
import { memberKey, type AssociationState } from '../core/types'
import { virtualClock } from './clock'
import { addMember, createInbox, type SignedUpdate } from './draft'
import {
  createSigningClient,
  DEFAULT_MAX_INSTALLATIONS,
  installationCount,
  registerInstallation,
  RegistrationError,
  type RegisterInstallationParams,
  type RegistrationProgress,
} from './registration'
import { installationKeySigner, type Signer } from './signers'
import { buildState, T0, testKey, W1, W3, I1 } from './testkit'

const NEW = installationKeySigner(testKey('new browser'))

/** Records every call in one log, so tests can assert the order of handler, signers, publish and reads. */
function harness(opts: { newest?: (bigint | null | Error)[]; receipt?: bigint } = {}) {
  const log: string[] = []
  const events: RegistrationProgress[] = []
  const newest = [...(opts.newest ?? [opts.receipt ?? 7n])]
  const published: Uint8Array[] = []
  const spy = <S extends Signer>(s: S, name: string): S => ({
    ...s,
    sign: (t: string) => (log.push(`sign:${name}`), s.sign(t)),
  })
  const params = {
    publish: async (bytes: Uint8Array, _u: SignedUpdate) => {
      log.push('publish')
      published.push(bytes)
      return { sequenceId: opts.receipt ?? 7n }
    },
    queryNewest: async (_inbox: string) => {
      const next = newest.length > 1 ? newest.shift()! : newest[0]!
      log.push(`queryNewest:${next instanceof Error ? 'error' : String(next)}`)
      if (next instanceof Error) throw next
      return next
    },
    onProgress: (e: RegistrationProgress) => {
      events.push(e)
      if (e.stage === 'complete') log.push('complete')
    },
    clock: virtualClock(),
    pollIntervalMs: 500,
    timeoutMs: 5_000,
  }
  const handler = async () => {
    log.push('preauth:start')
    await new Promise((r) => setImmediate(r)) // a turn of the event loop: the handler's own prompt
    log.push('preauth:end')
  }
  return { log, events, published, params, handler, spy }
}

let withI1: AssociationState
const stateWithI1 = async () =>
  (withI1 ??= await buildState([() => ({ clientTimestampNs: T0, actions: [createInbox(W1), addMember(W1, I1)] })]))

/** The request to add `installation` to the inbox of W1 and I1, approved by `authorizer`, on the harness's node. */
async function onI1(
  h: ReturnType<typeof harness>,
  installation: RegisterInstallationParams['installation'],
  authorizer: Signer,
  more: Partial<RegisterInstallationParams> = {},
) {
  return { state: await stateWithI1(), installation, authorizer, ...h.params, ...more }
}

async function stateWithInstallations(n: number): Promise<AssociationState> {
  const keys = Array.from({ length: n }, (_, k) => installationKeySigner(testKey(`inst ${k}`)))
  return buildState([
    () => ({ clientTimestampNs: T0, actions: [createInbox(W1), ...keys.map((k) => addMember(W1, k))] }),
  ])
}

async function rejection(p: Promise<unknown>): Promise<RegistrationError> {
  try {
    await p
  } catch (e) {
    if (e instanceof RegistrationError) return e
    throw e
  }
  throw new Error('expected a RegistrationError')
}

describe('createSigningClient', () => {
  it('IDENT-076: the app supplies the pre-authentication handler when it creates the client', async () => {
    const h = harness()
    const client = createSigningClient({ preAuthenticate: h.handler })
    const r = await client.registerInstallation(await onI1(h, NEW, W1))
    expect(r.status).toBe('registered')
    expect(h.log[0]).toBe('preauth:start')
    expect(client.maxInstallations).toBe(DEFAULT_MAX_INSTALLATIONS)
  })
})

describe('registerInstallation', () => {
  it('IDENT-073: calls the handler and waits for it to finish before any signer is asked to sign', async () => {
    const h = harness()
    const client = createSigningClient({ preAuthenticate: h.handler })
    const r = await client.registerInstallation(await onI1(h, h.spy(NEW, 'installation'), h.spy(W1, 'wallet')))
    expect(h.log).toEqual([
      'preauth:start',
      'preauth:end',
      'sign:wallet',
      'sign:installation',
      'publish',
      'queryNewest:7',
      'complete',
    ])
    expect(h.events.map((e) => e.stage)).toEqual([
      'preauth',
      'signing:existing_member_signature',
      'signing:existing_member_signature',
      'signing:new_member_signature',
      'signing:new_member_signature',
      'publishing',
      'confirming',
      'complete',
    ])
    expect(r.state.members.has(memberKey(NEW.identifier))).toBe(true)
    expect(r.state.members.get(memberKey(NEW.identifier))?.adder?.text).toBe(W1.identifier.text)
    expect(r.state.sequenceId).toBe(7n)
  })

  it('IDENT-073: also for a new inbox (CreateInbox and the installation in one update)', async () => {
    const h = harness({ receipt: 1n })
    const r = await registerInstallation({
      state: null,
      installation: h.spy(NEW, 'installation'),
      authorizer: h.spy(W3, 'wallet'),
      preAuthenticate: h.handler,
      nonce: 4n,
      ...h.params,
    })
    expect(h.log.slice(0, 4)).toEqual(['preauth:start', 'preauth:end', 'sign:wallet', 'sign:installation'])
    expect(r.signed?.update.actions.map((a) => a.kind)).toEqual(['create_inbox', 'add'])
    expect(installationCount(r.state)).toBe(1)
    expect(r.state.recovery.id.text).toBe(W3.identifier.text)
  })

  it('IDENT-075: a rejecting handler ends the registration with callback_failed, and no signer is asked', async () => {
    const h = harness()
    const cause = new Error('user closed the prompt')
    const e = await rejection(
      registerInstallation(
        await onI1(h, h.spy(NEW, 'installation'), h.spy(W1, 'wallet'), {
          preAuthenticate: async () => Promise.reject(cause),
        }),
      ),
    )
    expect(e.code).toBe('callback_failed')
    expect(e.cause).toBe(cause)
    expect(h.log).toEqual([])
    expect(h.published).toEqual([])
  })

  it('IDENT-075: a handler that throws synchronously is a callback failure too', async () => {
    const h = harness()
    const client = createSigningClient({
      preAuthenticate: () => {
        throw new Error('no UI')
      },
    })
    const e = await rejection(client.registerInstallation(await onI1(h, h.spy(NEW, 'i'), h.spy(W1, 'w'))))
    expect(e.code).toBe('callback_failed')
    expect(h.log).toEqual([])
  })

  it('IDENT-074: when the installation is already a member there is nothing to sign, and the handler is not called', async () => {
    const h = harness()
    let called = false
    const state = await stateWithI1()
    const r = await registerInstallation({
      state,
      installation: h.spy(I1, 'installation'),
      authorizer: h.spy(W1, 'wallet'),
      preAuthenticate: async () => void (called = true),
      ...h.params,
    })
    expect(called).toBe(false)
    expect(r).toMatchObject({ status: 'already_member', sequenceId: null, signed: null, inboxId: state.inboxId })
    expect(r.state).toBe(state)
    expect(h.log).toEqual(['complete'])
  })

  it('CONF-044: refuses at the ceiling of installations, saying how many there are and the ceiling', async () => {
    const h = harness()
    let called = false
    const state = await stateWithInstallations(10)
    const e = await rejection(
      registerInstallation({
        state,
        installation: h.spy(NEW, 'i'),
        authorizer: h.spy(W1, 'w'),
        preAuthenticate: async () => void (called = true),
        ...h.params,
      }),
    )
    expect(e.code).toBe('installation_ceiling')
    expect(e.details).toMatchObject({ installations: 10, ceiling: 10 })
    expect(e.message).toMatch(/10 installations.*no more than 10/)
    expect(called).toBe(false)
    expect(h.log).toEqual([])
  })

  it('CONF-044: the ceiling is configurable, on the client and per call', async () => {
    const state = await stateWithInstallations(2)
    const h = harness()
    const client = createSigningClient({ maxInstallations: 2 })
    expect(
      (await rejection(client.registerInstallation({ state, installation: NEW, authorizer: W1, ...h.params }))).details,
    ).toMatchObject({ installations: 2, ceiling: 2 })
    const r = await client.registerInstallation({
      state,
      installation: NEW,
      authorizer: W1,
      maxInstallations: 3,
      ...h.params,
    })
    expect(installationCount(r.state)).toBe(3)
  })

  it('IDENT-072: reports completion only once QueryNewest shows a sequence id not less than the receipt (3, 4, then 5)', async () => {
    const h = harness({ receipt: 5n, newest: [3n, 4n, 5n] })
    const r = await registerInstallation(await onI1(h, NEW, W1))
    expect(h.log.filter((l) => l.startsWith('queryNewest') || l === 'complete')).toEqual([
      'queryNewest:3',
      'queryNewest:4',
      'queryNewest:5',
      'complete',
    ])
    expect(h.events.filter((e) => e.stage === 'confirming')).toEqual([
      { stage: 'confirming', sequenceId: 5n, newest: 3n, attempt: 1 },
      { stage: 'confirming', sequenceId: 5n, newest: 4n, attempt: 2 },
      { stage: 'confirming', sequenceId: 5n, newest: 5n, attempt: 3 },
    ])
    expect(r).toMatchObject({ status: 'registered', sequenceId: 5n, visibleAt: 5n })
  })

  it('IDENT-072: a newer sequence id than the receipt also confirms; a failed read is not a confirmation', async () => {
    const h = harness({ receipt: 5n, newest: [new Error('unavailable'), null, 9n] })
    const r = await registerInstallation(await onI1(h, NEW, W1))
    expect(h.log.filter((l) => l.startsWith('queryNewest'))).toEqual([
      'queryNewest:error',
      'queryNewest:null',
      'queryNewest:9',
    ])
    expect(r.visibleAt).toBe(9n)
  })

  it('IDENT-072: when QueryNewest never reaches the receipt, reports visibility_timeout (published, not yet visible), not success', async () => {
    const h = harness({ receipt: 5n, newest: [3n, 4n] })
    const e = await rejection(registerInstallation(await onI1(h, NEW, W1, { timeoutMs: 3_000, pollIntervalMs: 500 })))
    expect(e.code).toBe('visibility_timeout')
    expect(e.details).toMatchObject({ sequenceId: 5n, newest: 4n })
    expect(e.details.signed?.bytes).toBe(h.published[0])
    expect(e.message).toMatch(/published at sequence id 5.*not yet visible/)
    expect(h.log).not.toContain('complete')
    expect(h.events.map((x) => x.stage)).not.toContain('complete')
    const polls = h.log.filter((l) => l.startsWith('queryNewest')).length
    expect(polls).toBe(7) // t = 0, 500, …, 3000 ms: bounded by timeoutMs
    expect(h.params.clock.elapsed).toBe(3_000)
  })

  it('refuses a registration the core rejects before the handler or any signer (authorizer not a member)', async () => {
    const h = harness()
    let called = false
    const e = await rejection(
      registerInstallation(
        await onI1(h, h.spy(NEW, 'i'), h.spy(W3, 'w'), { preAuthenticate: async () => void (called = true) }),
      ),
    )
    expect(e.code).toBe('rejected')
    expect(e.details.rule).toBe('IDENT-040')
    expect(called).toBe(false)
    expect(h.log).toEqual([])
  })

  it('refuses an installation as authorizer (IDENT-041)', async () => {
    const h = harness()
    const e = await rejection(registerInstallation(await onI1(h, NEW, I1)))
    expect(e).toMatchObject({ code: 'rejected', details: { rule: 'IDENT-041' } })
  })

  it('publishes nothing when a signer fails, and says which signature is missing', async () => {
    const h = harness()
    const rejecting: Signer = {
      ...W1,
      sign: async () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
    }
    const e = await rejection(registerInstallation(await onI1(h, NEW, rejecting, { preAuthenticate: h.handler })))
    expect(e.code).toBe('signature_failed')
    expect(e.message).toMatch(/existing member signature: user rejected/)
    expect(e.details.roles?.map((r) => r.status.state)).toEqual(['failed', 'missing'])
    expect(h.published).toEqual([])
  })

  it('reports a failed publish as publish_failed, with the signed update', async () => {
    const h = harness()
    const e = await rejection(
      registerInstallation(await onI1(h, NEW, W1, { publish: async () => Promise.reject(new Error('node down')) })),
    )
    expect(e.code).toBe('publish_failed')
    expect(e.details.signed?.bytes.length).toBeGreaterThan(0)
  })

  it('passes the exact signed bytes to publish', async () => {
    const h = harness()
    const r = await registerInstallation(await onI1(h, NEW, W1))
    expect(h.published[0]).toBe(r.signed?.bytes)
  })
})

describe('installationCount', () => {
  it('counts installation members only', async () => {
    expect(installationCount(await stateWithI1())).toBe(1)
    expect(installationCount(null)).toBe(0)
  })
})
