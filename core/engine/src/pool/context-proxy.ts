/**
 * The network sandbox gives a render's browser `--proxy-server` / `--proxy-bypass-list` flags. A
 * pooled browser outlives renders with different proxies, so the pool launches it without them
 * and sets the proxy on each lease's browser context instead (Target.createBrowserContext).
 */

const PROXY_FLAGS = /^--proxy-(server|bypass-list)=/;

/** A browser context's own proxy settings, as puppeteer's createBrowserContext takes them. */
export type ContextProxy = { proxyServer?: string; proxyBypassList?: string[] };

/** The network sandbox's proxy flags as a browser context's own proxy settings. */
export function contextProxy(args: readonly string[]): ContextProxy {
  const server = args.find((arg) => arg.startsWith('--proxy-server='))?.slice('--proxy-server='.length);
  const bypass = args.find((arg) => arg.startsWith('--proxy-bypass-list='))?.slice('--proxy-bypass-list='.length);
  return {
    ...(server ? { proxyServer: server } : {}),
    ...(bypass
      ? {
          proxyBypassList: bypass
            .split(/[;,]/)
            .map((rule) => rule.trim())
            .filter(Boolean),
        }
      : {}),
  };
}

/** A render's browser flags split into those the browser launches with and the proxy its context gets. */
export function splitProxyFlags(args: readonly string[]): { launchArgs: string[]; proxy: ContextProxy } {
  return { launchArgs: args.filter((arg) => !PROXY_FLAGS.test(arg)), proxy: contextProxy(args) };
}
