/** pg-boss is CommonJS with `export =` types: its class, imported once for the ESM code around it. */
import PgBossModule from 'pg-boss'

export const PgBoss = PgBossModule
export type PgBoss = PgBossModule
