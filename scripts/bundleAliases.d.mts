export const bundleAliases: Record<string, string>;
