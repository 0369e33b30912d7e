import { describe, expect, it } from 'vitest'
import { describePublishAnswer } from './publish-answer'

describe('describePublishAnswer', () => {
  it('reports a stored update with its sequence id and the IDENT-072 check', () => {
    expect(
      describePublishAnswer({
        kind: 'stored',
        sequenceId: 4n,
        visible: true,
        visibility: 'QueryNewest shows sequence id 4 or later for inbox ab (IDENT-072)',
      }),
    ).toEqual({
      tone: 'ok',
      text: 'Stored by the node with sequence id 4. QueryNewest shows sequence id 4 or later for inbox ab (IDENT-072).',
    })
    expect(describePublishAnswer({ kind: 'stored', sequenceId: 4n, visible: false }, true)).toEqual({
      tone: 'warn',
      text: 'Stored by the node with sequence id 4. QueryNewest does not show it yet (IDENT-072). The registration is not complete.',
    })
    expect(describePublishAnswer({ kind: 'stored', sequenceId: 4n, visible: null }, true).text).toMatch(
      /not reported complete \(IDENT-072\)/,
    )
    expect(describePublishAnswer({ kind: 'stored', sequenceId: 4n, visible: true }, true).text).toMatch(
      /The registration is complete\.$/,
    )
  })
  it('reports a refusal with the node’s code, rule and message, and an unreachable node', () => {
    expect(
      describePublishAnswer({
        kind: 'refused',
        status: 400,
        code: 'rejected',
        rule: 'IDENT-050',
        message: 'replayed signature',
      }),
    ).toEqual({
      tone: 'bad',
      text: 'Refused by the node (HTTP 400, rejected, IDENT-050): replayed signature',
    })
    expect(describePublishAnswer({ kind: 'unreachable', message: 'connection refused' })).toEqual({
      tone: 'bad',
      text: 'Not published: connection refused',
    })
  })
})
