export function devnodeArgs(port: number, db: string, extra?: readonly string[]): string[]
