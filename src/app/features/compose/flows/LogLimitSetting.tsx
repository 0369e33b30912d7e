import { WholeNumberSetting } from './WholeNumberSetting'
import { parseLogLimit } from './log-limit'

/** The log limit setting, in the Settings dialog. */
export function LogLimitSetting({ limit, onChange }: { limit: number; onChange: (limit: number) => void }) {
  return (
    <WholeNumberSetting
      label="Log limit of this deployment (updates per inbox; the network stores no more and never compacts)"
      name="Log limit"
      size={8}
      value={limit}
      parse={parseLogLimit}
      onChange={onChange}
    />
  )
}
