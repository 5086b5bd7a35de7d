/**
 * Runs the example app's own non-UI code (bundled by exampleTypescript.test.ts) in the order its
 * page calls it: connect() on mount (App.tsx reads `user.name`, `application` and
 * `health.os.version` from its reply), then createAsset, renameAsset and deleteAsset as its
 * buttons do. The browser is stood in for by browser.ts; the app's platform.config.ts sends a
 * Linux browser to Pieces OS's old Linux port 5323, redirected to the Satchel under test.
 * Prints one JSON line per step.
 *
 * Usage: node --experimental-strip-types example_run.ts <bundle.mjs> <satchel base URL> <code> <name>
 */
import { installBrowser } from './browser.ts';

const [bundle, base] = process.argv.slice(2);
if (!bundle || !base) throw new Error('usage: example_run.ts <bundle.mjs> <base URL> <code> <name>');
const print = (step: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(step)}\n`);

const browser = installBrowser(base, ['http://localhost:5323', 'http://localhost:1000']);

interface Context {
  user?: { name?: string };
  application: Record<string, unknown> & { id: string };
  health?: { os?: { version?: string } };
}
interface LocalAsset {
  id: string;
  name: string;
  classification: string;
}
interface Bundle {
  connect(): Promise<Context>;
  createAsset(application: Context['application'], data: string, name: string): Promise<void>;
  renameAsset(name: string, id: string): Promise<void>;
  deleteAsset(id: string, setArray: (assets: LocalAsset[]) => void): Promise<void>;
  BASE_URL: string;
  config: unknown;
  AssetsApi: new (config: unknown) => { assetsSnapshot(input: object): Promise<{ iterable: Array<{ id: string; name?: string }> }> };
}
const app = (await import(bundle)) as Bundle;

const context = await app.connect();
print({ step: 'connected', baseUrl: app.BASE_URL, user: context.user?.name ?? null, application: context.application.id, os: context.health?.os?.version ?? null });

const [raw, name] = [process.argv[4] ?? '', process.argv[5] ?? ''];
await app.createAsset(context.application, raw, name);
// The page's list, as App.tsx takes it (AssetsApi.assetsSnapshot with the app's config).
const listed = await new app.AssetsApi(app.config).assetsSnapshot({});
const mine = listed.iterable.find((asset) => asset.name === name);
print({ step: 'created', id: mine?.id ?? null, listed: listed.iterable.map((asset) => asset.name) });
if (!mine) process.exit(2);

await app.renameAsset(`${name} (renamed)`, mine.id);
const relisted = await new app.AssetsApi(app.config).assetsSnapshot({});
print({ step: 'renamed', name: relisted.iterable.find((asset) => asset.id === mine.id)?.name ?? null });

let shown: LocalAsset[] | undefined;
await app.deleteAsset(mine.id, (assets) => (shown = assets));
print({ step: 'deleted', shown: shown ?? null, alerts: browser.alerts, errors: browser.errors });
process.exit(0);
