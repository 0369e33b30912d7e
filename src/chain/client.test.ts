import {
  CallExecutionError,
  ExecutionRevertedError,
  HttpRequestError,
  InternalRpcError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  ParseRpcError,
  ResourceNotFoundRpcError,
  TimeoutError,
  type BaseError,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { classifyChainError } from './client'

const call = (cause: BaseError) => new CallExecutionError(cause, {})

/** Node dialects of ../shared/notes/chain.md §8, as viem wraps them. */
describe('classifyChainError', () => {
  it.each([
    [
      'anvil revert (code 3)',
      call(new ExecutionRevertedError({ cause: new Error('execution reverted') } as never)),
      'reverted',
    ],
    [
      'hardhat 2 revert (-32603, "Transaction reverted…")',
      call(new InternalRpcError(new Error('Transaction reverted without a reason string'))),
      'reverted',
    ],
    [
      'ganache revert (-32000, "VM Exception … revert")',
      call(new InvalidInputRpcError(new Error('VM Exception while processing transaction: revert'))),
      'reverted',
    ],
    [
      'anvil out of gas under the cap (-32603)',
      call(new InternalRpcError(new Error('EVM error OutOfGas'))),
      'exceeded',
    ],
    [
      'anvil intrinsic gas above the cap',
      call(new InvalidInputRpcError(new Error('intrinsic gas too high -- CallGasCostMoreThanGasLimit'))),
      'exceeded',
    ],
    [
      'geth intrinsic gas',
      call(new InvalidInputRpcError(new Error('intrinsic gas too low: have 21000, want 53000'))),
      'exceeded',
    ],
    ['max initcode size', call(new InvalidInputRpcError(new Error('max initcode size exceeded'))), 'exceeded'],
    [
      'anvil block beyond head (-32602)',
      call(new InvalidParamsRpcError(new Error('BlockOutOfRangeError: block height is 3 but requested was 9'))),
      'rpc',
    ],
    [
      'hardhat block beyond head (-32000)',
      call(new InvalidInputRpcError(new Error('Received invalid block tag 9. Latest block number is 3'))),
      'rpc',
    ],
    ['ganache header not found (-32700)', call(new ParseRpcError(new Error('header not found'))), 'rpc'],
    ['tevm block not found (-32001)', call(new ResourceNotFoundRpcError(new Error('block not found'))), 'rpc'],
    [
      'connection refused',
      call(
        new HttpRequestError({
          url: 'http://127.0.0.1:9',
          cause: Object.assign(new Error('fetch failed'), { code: 'ECONNREFUSED' }),
        }),
      ),
      'transport',
    ],
    [
      'HTTP 503 with an HTML body',
      call(new HttpRequestError({ url: 'http://127.0.0.1:9', status: 503, details: 'Service Unavailable' })),
      'transport',
    ],
    ['timeout', call(new TimeoutError({ body: {}, url: 'http://127.0.0.1:9' })), 'transport'],
  ] as const)('%s → %s', (_name, err, kind) => {
    const c = classifyChainError(err)
    expect(c.kind).toBe(kind)
    expect(c.reason).not.toMatch(/\n/)
  })

  it('a transport failure wins over a revert-looking body, and a non-viem error is other', () => {
    const http = new HttpRequestError({
      url: 'http://127.0.0.1:9',
      status: 502,
      body: { revert: true },
      details: 'bad gateway: execution reverted',
    })
    expect(classifyChainError(call(http)).kind).toBe('transport')
    expect(classifyChainError(new TypeError('boom'))).toEqual({ kind: 'other', reason: 'boom' })
  })

  it('recognises an error of another viem copy by its shape, not instanceof', () => {
    const foreign = Object.assign(new Error('Execution reverted.'), {
      shortMessage: 'Execution reverted.',
      name: 'CallExecutionError',
      cause: { name: 'ExecutionRevertedError', code: 3, details: 'execution reverted' },
      walk(fn: (e: unknown) => boolean) {
        let e: unknown = this
        while (e) {
          if (fn(e)) return e
          e = (e as { cause?: unknown }).cause
        }
        return null
      },
    })
    expect(classifyChainError(foreign).kind).toBe('reverted')
  })
})
