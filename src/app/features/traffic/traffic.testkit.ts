/** One call of the node traffic log as the node sends it (`extra` overrides fields), for the traffic tests. */
export const INBOX = 'ab'.repeat(32)
export const wireCall = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  time: '2026-12-04T16:20:01.123Z',
  transport: 'connect',
  method: 'xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate',
  subject: { kind: 'inbox', value: INBOX },
  outcome: 'ok',
  code: 'ok',
  rule: null,
  message: '',
  ms: 3.2,
  update: { inbox_id: INBOX, sequence_id: String(id), update_hex: '0a01', truncated: false },
  ...extra,
})
