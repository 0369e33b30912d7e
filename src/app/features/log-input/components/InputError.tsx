import type { InputProblem } from '../../../../worker/protocol'
import { orderAttempts } from '../attempts'

const FORMAT_NAMES: Record<string, string> = {
  'bundle-json': 'log bundle JSON',
  'get-identity-updates-binary': 'GetIdentityUpdatesResponse (binary protobuf)',
  'get-identity-updates-json': 'GetIdentityUpdatesResponse (proto3 JSON)',
  'single-update': 'single IdentityUpdate',
  'postgres-csv': 'PostgreSQL CSV export',
  json: 'JSON',
  hex: 'hex text',
  base64: 'base64 text',
  text: 'UTF-8 text',
  auto: 'auto-detection',
}

function formatName(f: string): string {
  return f
    .split(' → ')
    .map((p) => FORMAT_NAMES[p] ?? p)
    .join(' → ')
}

/** Why an input is not a log: the failure, and every format tried with where and why it failed. */
export function InputErrorView({
  label,
  problem,
  message,
  json = false,
}: {
  label: string
  problem?: InputProblem | undefined
  message?: string | undefined
  /** The input is clearly JSON: say so and lead with the JSON failure. */
  json?: boolean
}) {
  const attempts = problem ? orderAttempts(problem.attempts, json) : []
  const lead = json ? attempts.find((a) => /json/i.test(a.format)) : undefined
  return (
    <div className="input-error" role="alert" aria-labelledby="input-error-title">
      <h3 id="input-error-title">{label} could not be opened</h3>
      {problem ? (
        <>
          <p className="input-error-main">
            {lead ? (
              <>
                The input is JSON but not a log: <strong>{formatName(lead.format)}</strong>: {lead.detail}
                {lead.where && <> (at {lead.where})</>}. Every format tried:
              </>
            ) : problem.attempts.length > 0 ? (
              <>Not a log in any supported format. Formats tried:</>
            ) : (
              <>
                <strong>{formatName(problem.format)}</strong>: {problem.detail}
                {problem.where && <> (at {problem.where})</>}
              </>
            )}
          </p>
          {problem.attempts.length > 0 && (
            <table className="attempts" aria-label="Formats tried and why each failed">
              <thead>
                <tr>
                  <th scope="col">format</th>
                  <th scope="col">where</th>
                  <th scope="col">why it failed</th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((a, i) => (
                  <tr key={i}>
                    <td>{formatName(a.format)}</td>
                    <td className="mono">{a.where || '—'}</td>
                    <td>{a.detail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : (
        <p className="input-error-main">{message}</p>
      )}
    </div>
  )
}
