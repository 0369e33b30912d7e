/**
 * The node's answer to a publish from the playground, in words: stored with its
 * sequence id (and, given the inbox id, whether QueryNewest shows it, IDENT-072), refused
 * with the node's code, rule and message, or not reached.
 */
import type { PublishAnswer } from '../../model/node-service'

export interface AnswerText {
  readonly tone: 'ok' | 'warn' | 'bad'
  readonly text: string
}

/** `registration`: a registration is complete only once it is visible (IDENT-072). */
export function describePublishAnswer(a: PublishAnswer, registration = false): AnswerText {
  switch (a.kind) {
    case 'stored': {
      const at = `Stored by the node with sequence id ${a.sequenceId}.`
      if (a.visible === true)
        return {
          tone: 'ok',
          text: `${at} ${a.visibility ?? 'QueryNewest shows it (IDENT-072)'}.${registration ? ' The registration is complete.' : ''}`,
        }
      if (a.visible === false)
        return {
          tone: 'warn',
          text: `${at} ${a.visibility ?? 'QueryNewest does not show it yet (IDENT-072)'}.${registration ? ' The registration is not complete.' : ''}`,
        }
      return {
        tone: registration ? 'warn' : 'ok',
        text: registration
          ? `${at} Its visibility was not checked, so the registration is not reported complete (IDENT-072).`
          : at,
      }
    }
    case 'refused':
      return {
        tone: 'bad',
        text: `Refused by the node (HTTP ${a.status}, ${a.code}${a.rule ? `, ${a.rule}` : ''}): ${a.message}`,
      }
    case 'unreachable':
      return { tone: 'bad', text: `Not published: ${a.message}` }
  }
}
