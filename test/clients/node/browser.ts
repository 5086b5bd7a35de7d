/**
 * The least of a browser the Pieces web examples touch, for running their own modules in Node:
 * `window` / `navigator` (their platform guesses, `window.onload`, `window.alert`),
 * `document.getElementById` (no element: the examples' optional inputs stay empty), and `fetch` /
 * `WebSocket` sent to the Satchel under test instead of the Pieces OS address the example
 * hard-codes (its origin given as `from`).
 */
export interface Browser {
  /** What the page would have shown with window.alert. */
  readonly alerts: string[];
  /** What the page logged with console.error (the examples catch their failures and log them). */
  readonly errors: string[];
  /** Every socket the page opened, to close at the end. */
  readonly sockets: WebSocket[];
}

export function installBrowser(base: string, from: readonly string[]): Browser {
  const browser: Browser = { alerts: [], errors: [], sockets: [] };
  const ws = base.replace(/^http/, 'ws');
  const redirect = (url: string): string => {
    for (const origin of from) {
      if (url.startsWith(origin)) return base + url.slice(origin.length);
      const wsOrigin = origin.replace(/^http/, 'ws');
      if (url.startsWith(wsOrigin)) return ws + url.slice(wsOrigin.length);
    }
    return url;
  };

  const nodeFetch = globalThis.fetch;
  globalThis.fetch = (input: string | URL | Request, init?: RequestInit) =>
    nodeFetch(typeof input === 'string' ? redirect(input) : input instanceof URL ? redirect(input.href) : new Request(redirect(input.url), input), init);

  const NodeWebSocket = globalThis.WebSocket;
  globalThis.WebSocket = class RedirectedWebSocket extends NodeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(redirect(String(url)), protocols);
      browser.sockets.push(this);
    }
  };

  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    browser.errors.push(args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    consoleError(...args);
  };
  // The examples log their progress to the console; stdout carries the runner's JSON steps only.
  console.log = (...args: unknown[]) => console.warn(...args);

  const navigator = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux x86_64' };
  // Node has a navigator of its own (a getter saying Node.js): replaced, not assigned.
  Object.defineProperty(globalThis, 'navigator', { value: navigator, configurable: true });
  Object.assign(globalThis, {
    window: { navigator, location: { reload() {} }, alert: (message: string) => browser.alerts.push(message) },
    document: { getElementById: () => null },
  });
  return browser;
}
