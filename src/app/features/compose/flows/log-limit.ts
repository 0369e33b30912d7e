/**
 * The deployment's log limit: the network keeps a bounded number of updates per inbox
 * (./health.ts judges an inbox against it). The header's health chip and the Settings
 * dialog read it.
 */
import { countSetting, type ParsedCount, parseCount } from '../count-setting'

/** The default limit of stored updates per inbox (a setting). */
const DEFAULT_LOG_LIMIT = 256
/** An update that would leave this many entries or fewer spends "one of the last" (warned). */
export const LAST_ENTRIES = 3

const MAX_LOG_LIMIT = 1_000_000

/** The limit as typed: a whole number from 1 to 1,000,000, or why it is not one. */
export function parseLogLimit(text: string): ParsedCount {
  return parseCount(text, 'the log limit', MAX_LOG_LIMIT)
}

/** The deployment's log limit setting (default 256), in the Settings dialog. */
export const LOG_LIMIT_SETTING = countSetting('inspector.logLimit', parseLogLimit, () => DEFAULT_LOG_LIMIT)
