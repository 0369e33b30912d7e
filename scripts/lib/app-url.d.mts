export function appUrl(url: string): string
export function viteArgs(port: number, open: boolean): string[]
