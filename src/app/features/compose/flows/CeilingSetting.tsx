import { parseCeiling } from '../registration-flow'
import { setCeiling, useCeiling } from '../useCeiling'
import { WholeNumberSetting } from './WholeNumberSetting'

/** The installation ceiling setting (CONF-044), in the Settings dialog; the registration shows the same value. */
export function CeilingSetting() {
  return (
    <WholeNumberSetting
      label="Installation ceiling (CONF-044: this app registers no installation beyond it)"
      name="Installation ceiling"
      size={6}
      value={useCeiling()}
      parse={parseCeiling}
      onChange={setCeiling}
    />
  )
}
