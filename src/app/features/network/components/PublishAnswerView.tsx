/** The node's answer to a publish: stored with its sequence id, or refused with code, rule and message. */
import type { PublishAnswer } from '../../../model/node-service'

export function PublishAnswerView({ answer }: { answer: PublishAnswer }) {
  if (answer.kind === 'stored')
    return (
      <p role="status" className="ok">
        Stored by the node with sequence id {answer.sequenceId.toString()}.
        {answer.visibility ? ` ${answer.visibility}.` : ''}
      </p>
    )
  if (answer.kind === 'refused')
    return (
      <p role="alert" className="bad">
        Refused by the node (HTTP {answer.status}, {answer.code}
        {answer.rule ? `, ${answer.rule}` : ''}): {answer.message}
      </p>
    )
  return (
    <p role="alert" className="bad">
      Not published: {answer.message}
    </p>
  )
}
