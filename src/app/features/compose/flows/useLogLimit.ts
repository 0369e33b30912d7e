import { pageSetting } from '../../../model/setting'
import { LOG_LIMIT_SETTING } from './log-limit'

const logLimit = pageSetting(LOG_LIMIT_SETTING)

/** The deployment's log limit setting (default 256): one value for the page, kept in localStorage. */
export function useLogLimit(): [number, (limit: number) => void] {
  return [logLimit.use(), logLimit.set]
}
