/** The inbox tasks, by name: `?flow=health|cleanup|claim|recovery` opens one. */
export const FLOWS = ['health', 'cleanup', 'claim', 'recovery'] as const
export type FlowId = (typeof FLOWS)[number]

export const FLOW_TITLE: Record<FlowId, string> = {
  health: 'Inbox health',
  cleanup: 'Clean up installations',
  claim: 'Claim a handle',
  recovery: 'Rotate recovery',
}

export function isFlowId(s: string | null): s is FlowId {
  return s !== null && (FLOWS as readonly string[]).includes(s)
}
