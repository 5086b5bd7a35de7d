export function resolveLocked(packages: Record<string, unknown>, from: string, name: string): string | undefined;
