/**
 * The planted set: one snippet line per credential shape the detector must find, at least one for
 * every message of the preset that a snippet can hold and for Satchel's assignment rule. The values
 * are made up: generated from a fixed seed in each rule's alphabet and length, so they match the
 * rule's shape but are nobody's credential (docs/secrets.md measures recall on them).
 */
import { mulberry32 } from '../../bench/corpus.ts';

export interface Planted {
  /** `rule:messageId` as src/core/secrets/ruleLabels.ts keys it (`satchel:assignment` for Satchel's own). */
  readonly shape: string;
  /** The snippet, as a developer would have saved it. */
  readonly text: string;
  /** The credential in it: what no door may show. */
  readonly value: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const B64 = `${ALNUM}+/`;

const random = mulberry32(32);
/** `n` characters of `alphabet`, from the fixed seed: random-looking, reproducible, fake. */
function fill(n: number, alphabet = ALNUM): string {
  let out = '';
  // Always a letter and a digit where the alphabet has both, as real tokens do.
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function plant(shape: string, value: string, line: (value: string) => string): Planted {
  return { shape, value, text: line(value) };
}

const pemBody = `MII${fill(61, B64)}\n${fill(64, B64)}\n${fill(64, B64)}\n${fill(40, B64)}==`;

export const PLANTED: readonly Planted[] = [
  plant('aws:AWSAccessKeyID', `AKIA${fill(16, UPPER)}`, (v) => `s3 = boto3.client("s3", aws_access_key_id="${v}")`),
  plant('aws:AWSSecretAccessKey', fill(40, B64), (v) => `aws_secret_access_key = "${v}"`),
  plant('aws:AWSSecretAccessKey', fill(40, ALNUM), (v) => `export AWS_SECRET_ACCESS_KEY=${v}`),
  plant('privatekey:PrivateKey', pemBody, (v) => `-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----\n`),
  plant('privatekey:PrivateKey', pemBody.replace('MII', 'MIJ'), (v) => `key = """-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----"""`),
  plant('gcp:PrivateKeyJSON', pemBody.replace('MII', 'MIK'), (v) =>
    JSON.stringify({ type: 'service_account', project_id: 'demo', private_key_id: fill(40, HEX), private_key: `-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----\n` }, null, 2)),
  plant('npm:NPM_ACCESS_TOKEN', `npm_${fill(36)}`, (v) => `NPM_TOKEN=${v}`),
  plant('npm:Npmrc_authToken', fill(30, ALNUM), (v) => `//registry.npmjs.org/:_authToken=${v}`),
  plant('basicauth:BasicAuth', `Pw${fill(14)}`, (v) => `curl https://deploy:${v}@ci.internal.dev/hooks/run`),
  plant('slack:SLACK_TOKEN', `xoxb-${fill(11, DIGITS)}-${fill(13, DIGITS)}-${fill(24)}`, (v) => `app = App(token="${v}")`),
  plant('slack:IncomingWebhook', `https://hooks.slack.com/services/T${fill(10, UPPER)}/B${fill(10, UPPER)}/${fill(24)}`, (v) => `requests.post("${v}", json={"text": "deployed"})`),
  plant('sendgrid:SENDGRID_KEY', `SG.${fill(22)}.${fill(43)}`, (v) => `sg = SendGridAPIClient("${v}")`),
  plant('shopify:SHOPIFY_KEY', `shpat_${fill(32, HEX)}`, (v) => `X-Shopify-Access-Token: ${v}`),
  plant('stripe:STRIPE_SECRET_KEY_LIVE', `sk_live_${fill(24)}`, (v) => `const stripe = require('stripe')('${v}');`),
  plant('stripe:STRIPE_SECRET_KEY_TEST', `sk_test_${fill(24)}`, (v) => `stripe.api_key = "${v}"`),
  plant('stripe:STRIPE_RESTRICTED_KEY_LIVE', `rk_live_${fill(24)}`, (v) => `STRIPE_KEY=${v}`),
  plant('stripe:STRIPE_RESTRICTED_KEY_TEST', `rk_test_${fill(24)}`, (v) => `Stripe.apiKey = "${v}";`),
  plant('github:GITHUB_TOKEN', `ghp_${fill(36)}`, (v) => `curl -H "Authorization: token ${v}" https://api.github.com/user`),
  plant('github:GITHUB_TOKEN', `gho_${fill(36)}`, (v) => `const octokit = new Octokit({ auth: '${v}' });`),
  plant('github:GITHUB_TOKEN', `github_pat_${fill(82)}`, (v) => `gh auth login --with-token <<< ${v}`),
  plant('gitlab:GITLAB_PERSONAL_ACCESS_TOKEN', `glpat-${fill(20)}`, (v) => `git clone https://oauth2:${v}@gitlab.com/group/repo.git`),
  plant('grafana:GRAFANA_CLOUD_API_TOKEN', `glc_${fill(40, ALNUM)}`, (v) => `GRAFANA_TOKEN="${v}"`),
  plant('grafana:GRAFANA_SERVICE_ACCOUNT_TOKEN', `glsa_${fill(32)}_${fill(8, HEX)}`, (v) => `headers = {"Authorization": "Bearer ${v}"}`),
  plant('openai:OPENAI_TOKEN', `sk-proj-${fill(74)}T3BlbkFJ${fill(74)}`, (v) => `client = OpenAI(api_key="${v}")`),
  plant('openai:OPENAI_TOKEN', `sk-${fill(20)}T3BlbkFJ${fill(20)}`, (v) => `openai.api_key = '${v}'`),
  plant('anthropic:ANTHROPIC_API_KEY', `sk-ant-api03-${fill(93)}AA`, (v) => `client = anthropic.Anthropic(api_key="${v}")`),
  plant('groq:GROQ_API_KEY', `gsk_${fill(52)}`, (v) => `GROQ_API_KEY=${v}`),
  plant('huggingface:HUGGINGFACE_USER_ACCESS_TOKEN', `hf_${fill(34, LETTERS)}`, (v) => `login(token="${v}")`),
  plant('linear:LINEAR_API_TOKEN', `lin_api_${fill(40)}`, (v) => `const linear = new LinearClient({ apiKey: "${v}" })`),
  plant('notion:NOTION_INTEGRATION_TOKEN', `ntn_${fill(11, DIGITS)}${fill(35)}`, (v) => `notion = Client(auth="${v}")`),
  plant('1password:OPS_TOKEN', `ops_eyJ${fill(120, ALNUM)}fQ==`, (v) => `export OP_SERVICE_ACCOUNT_TOKEN=${v}`),
  plant('database-connection-string:PostgreSQLConnection', `postgres://app:Pg${fill(14)}@db.internal.dev:5432/shop`, (v) => `DATABASE_URL="${v}"`),
  plant('database-connection-string:MySQLConnection', `mysql://root:My${fill(14)}@10.0.0.5:3306/app`, (v) => `engine = create_engine("${v}")`),
  plant('database-connection-string:MongoDBConnection', `mongodb+srv://admin:Mg${fill(14)}@cluster0.abcde.mongodb.net/prod`, (v) => `mongoose.connect('${v}');`),
  plant('hashicorp-vault:HASHICORP_VAULT_SERVICE_TOKEN', `hvs.${fill(95)}`, (v) => `VAULT_TOKEN=${v}`),
  plant('hashicorp-vault:HASHICORP_VAULT_BATCH_TOKEN', `hvb.${fill(140)}`, (v) => `vault login ${v}`),
  plant('hashicorp-vault:HASHICORP_VAULT_RECOVERY_TOKEN', `hvr.${fill(95)}`, (v) => `recovery: ${v}`),
  plant('vercel:VERCEL_PERSONAL_ACCESS_TOKEN', `vcp_${fill(24)}`, (v) => `VERCEL_TOKEN=${v}`),
  plant('vercel:VERCEL_INTEGRATION_TOKEN', `vci_${fill(24)}`, (v) => `token: ${v}`),
  plant('vercel:VERCEL_APP_ACCESS_TOKEN', `vca_${fill(24)}`, (v) => `fetch(url, { headers: { Authorization: "Bearer ${v}" } })`),
  plant('vercel:VERCEL_APP_REFRESH_TOKEN', `vcr_${fill(24)}`, (v) => `refresh = "${v}"`),
  plant('vercel:VERCEL_AI_GATEWAY_API_KEY', `vck_${fill(24)}`, (v) => `AI_GATEWAY_API_KEY=${v}`),
  plant('databricks:DATABRICKS_PERSONAL_ACCESS_TOKEN', `dapi${fill(32, HEX)}`, (v) => `DATABRICKS_TOKEN=${v}`),
  plant('docker:DOCKER_PERSONAL_ACCESS_TOKEN', `dckr_pat_${fill(27)}`, (v) => `echo ${v} | docker login -u me --password-stdin`),
  plant('figma:FIGMA_PERSONAL_ACCESS_TOKEN', `figd_${fill(40)}`, (v) => `"X-Figma-Token": "${v}"`),
  plant('cloudflare:CLOUDFLARE_GLOBAL_API_KEY', `cfk_${fill(40)}${fill(8, HEX)}`, (v) => `CF_API_KEY=${v}`),
  plant('cloudflare:CLOUDFLARE_USER_API_TOKEN', `cfut_${fill(40)}${fill(8, HEX)}`, (v) => `CLOUDFLARE_API_TOKEN=${v}`),
  plant('cloudflare:CLOUDFLARE_ACCOUNT_API_TOKEN', `cfat_${fill(40)}${fill(8, HEX)}`, (v) => `cf = Cloudflare(api_token="${v}")`),
  plant('tailscale:TAILSCALE_API_KEY', `tskey-api-${fill(12)}-${fill(30)}`, (v) => `TS_API_KEY=${v}`),
  plant('tailscale:TAILSCALE_AUTH_KEY', `tskey-auth-${fill(12)}-${fill(30)}`, (v) => `tailscale up --authkey=${v}`),
  plant('tailscale:TAILSCALE_CLIENT_KEY', `tskey-client-${fill(12)}-${fill(30)}`, (v) => `TS_OAUTH_SECRET=${v}`),
  plant('tailscale:TAILSCALE_SCIM_KEY', `tskey-scim-${fill(12)}-${fill(30)}`, (v) => `scim_key: ${v}`),
  plant('tailscale:TAILSCALE_WEBHOOK_KEY', `tskey-webhook-${fill(12)}-${fill(30)}`, (v) => `secret = "${v}"`),
  plant('tailscale:TAILSCALE_KEY', `tskey-device-${fill(12)}-${fill(30)}`, (v) => `TS_KEY=${v}`),
  plant('satchel:assignment', fill(24), (v) => `password = "${v}"`),
  plant('satchel:assignment', fill(32), (v) => `  client_secret: ${v}`),
  plant('satchel:assignment', fill(28), (v) => `{ "api_key": "${v}" }`),
  plant('satchel:assignment', fill(40, HEX), (v) => `const signingKey = '${v}';`),
  plant('satchel:assignment', fill(20), (v) => `DB_PASSWORD=${v}`),
  plant('satchel:assignment', fill(30), (v) => `$config['secret'] = '${v}';`),
  // A shell's assignment a command follows on its line, and the same pasted into a sentence.
  plant('satchel:assignment', fill(40, B64), (v) => `AWS_SECRET_ACCESS_KEY=${v} aws s3 cp dist/ s3://releases/ --recursive`),
  plant('satchel:assignment', fill(32), (v) => `Why does API_TOKEN=${v} fail in CI?`),
];
