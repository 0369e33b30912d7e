/**
 * The installation ceiling setting (CONF-044) as one value for the whole page: the
 * Settings dialog sets it, the registration and the inbox tasks read it, and each sees a
 * change at once (src/app/model/setting.ts).
 */
import { pageSetting } from '../../model/setting'
import { CEILING_SETTING } from './registration-flow'

const ceiling = pageSetting(CEILING_SETTING)

/** Saves a valid ceiling and tells every reader. */
export const setCeiling = ceiling.set
export const useCeiling = ceiling.use
