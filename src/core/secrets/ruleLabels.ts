/**
 * What each secretlint message (and Satchel's own assignment rule) is, in the interface's words: a
 * category, a severity and the label people and placeholders read. Keyed by the rule's short name
 * and its message id, so a message a later preset adds still gets its rule's fallback.
 */
import type { SecretCategory, SecretSeverity } from './findings.ts';

export interface RuleLabel {
  readonly category: SecretCategory;
  readonly severity: SecretSeverity;
  readonly label: string;
}

const high = (category: SecretCategory, label: string): RuleLabel => ({ category, severity: 'HIGH', label });
const moderate = (category: SecretCategory, label: string): RuleLabel => ({ category, severity: 'MODERATE', label });
const low = (category: SecretCategory, label: string): RuleLabel => ({ category, severity: 'LOW', label });

/** `rule:messageId` (rule without its `@secretlint/secretlint-rule-` prefix) → what it found. */
const MESSAGES: Readonly<Record<string, RuleLabel>> = {
  'aws:AWSAccountID': low('API_ID', 'AWS account ID'),
  'aws:AWSSecretAccessKey': high('SECRET_KEY', 'AWS secret access key'),
  'aws:AWSAccessKeyID': high('ACCESS_KEY', 'AWS access key ID'),
  'gcp:PrivateKeyP12': high('PRIVATE_KEY', 'GCP service account key'),
  'gcp:PrivateKeyJSON': high('PRIVATE_KEY', 'GCP service account key'),
  'privatekey:PrivateKey': high('PRIVATE_KEY', 'Private key'),
  'npm:PackageJSON_xOauthToken': high('ACCESS_TOKEN', 'npm OAuth token'),
  'npm:Npmrc_authToken': high('ACCESS_TOKEN', 'npm auth token'),
  'npm:NPM_ACCESS_TOKEN': high('ACCESS_TOKEN', 'npm access token'),
  'basicauth:BasicAuth': high('URL', 'Password in a URL'),
  'slack:SLACK_TOKEN': high('ACCESS_TOKEN', 'Slack token'),
  'slack:IncomingWebhook': high('WEB_HOOK_URL', 'Slack webhook URL'),
  'sendgrid:SENDGRID_KEY': high('API_KEY', 'SendGrid API key'),
  'shopify:SHOPIFY_KEY': high('ACCESS_TOKEN', 'Shopify access token'),
  'stripe:STRIPE_SECRET_KEY_LIVE': high('SECRET_KEY', 'Stripe live secret key'),
  'stripe:STRIPE_SECRET_KEY_TEST': moderate('SECRET_KEY', 'Stripe test secret key'),
  'stripe:STRIPE_RESTRICTED_KEY_LIVE': high('API_KEY', 'Stripe live restricted key'),
  'stripe:STRIPE_RESTRICTED_KEY_TEST': moderate('API_KEY', 'Stripe test restricted key'),
  'github:GITHUB_TOKEN': high('ACCESS_TOKEN', 'GitHub token'),
  'gitlab:GITLAB_PERSONAL_ACCESS_TOKEN': high('ACCESS_TOKEN', 'GitLab access token'),
  'grafana:GRAFANA_CLOUD_API_TOKEN': high('API_TOKEN', 'Grafana Cloud API token'),
  'grafana:GRAFANA_SERVICE_ACCOUNT_TOKEN': high('ACCESS_TOKEN', 'Grafana service account token'),
  'openai:OPENAI_TOKEN': high('API_KEY', 'OpenAI API key'),
  'anthropic:ANTHROPIC_API_KEY': high('API_KEY', 'Anthropic API key'),
  'groq:GROQ_API_KEY': high('API_KEY', 'Groq API key'),
  'huggingface:HUGGINGFACE_USER_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Hugging Face access token'),
  'linear:LINEAR_API_TOKEN': high('API_TOKEN', 'Linear API key'),
  'notion:NOTION_INTEGRATION_TOKEN': high('API_TOKEN', 'Notion integration token'),
  '1password:OPS_TOKEN': high('ACCESS_TOKEN', '1Password service account token'),
  'database-connection-string:MongoDBConnection': high('URL', 'MongoDB connection string'),
  'database-connection-string:MySQLConnection': high('URL', 'MySQL connection string'),
  'database-connection-string:PostgreSQLConnection': high('URL', 'PostgreSQL connection string'),
  'hashicorp-vault:HASHICORP_VAULT_SERVICE_TOKEN': high('ACCESS_TOKEN', 'Vault service token'),
  'hashicorp-vault:HASHICORP_VAULT_BATCH_TOKEN': high('ACCESS_TOKEN', 'Vault batch token'),
  'hashicorp-vault:HASHICORP_VAULT_RECOVERY_TOKEN': high('ACCESS_TOKEN', 'Vault recovery token'),
  'vercel:VERCEL_PERSONAL_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Vercel access token'),
  'vercel:VERCEL_INTEGRATION_TOKEN': high('ACCESS_TOKEN', 'Vercel integration token'),
  'vercel:VERCEL_APP_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Vercel app access token'),
  'vercel:VERCEL_APP_REFRESH_TOKEN': high('ACCESS_TOKEN', 'Vercel app refresh token'),
  'vercel:VERCEL_AI_GATEWAY_API_KEY': high('API_KEY', 'Vercel AI Gateway API key'),
  'databricks:DATABRICKS_PERSONAL_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Databricks access token'),
  'docker:DOCKER_PERSONAL_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Docker access token'),
  'figma:FIGMA_PERSONAL_ACCESS_TOKEN': high('ACCESS_TOKEN', 'Figma access token'),
  'cloudflare:CLOUDFLARE_GLOBAL_API_KEY': high('API_KEY', 'Cloudflare global API key'),
  'cloudflare:CLOUDFLARE_USER_API_TOKEN': high('API_TOKEN', 'Cloudflare API token'),
  'cloudflare:CLOUDFLARE_ACCOUNT_API_TOKEN': high('API_TOKEN', 'Cloudflare account API token'),
  'tailscale:TAILSCALE_API_KEY': high('API_KEY', 'Tailscale API key'),
  'tailscale:TAILSCALE_AUTH_KEY': high('SECRET_KEY', 'Tailscale auth key'),
  'tailscale:TAILSCALE_CLIENT_KEY': high('CLIENT_SECRET', 'Tailscale OAuth client secret'),
  'tailscale:TAILSCALE_SCIM_KEY': high('API_KEY', 'Tailscale SCIM key'),
  'tailscale:TAILSCALE_WEBHOOK_KEY': high('SECRET_KEY', 'Tailscale webhook key'),
  'tailscale:TAILSCALE_KEY': high('API_KEY', 'Tailscale key'),
};

/** Satchel's own rule: a long random value assigned to a name that says it is secret (assignments.ts). */
export const ASSIGNMENT_RULE = 'satchel/secret-assignment';

const RULE_PREFIX = '@secretlint/secretlint-rule-';

/** What a finding of `ruleId` with `messageId` is; an unknown message is a secret of its rule, HIGH. */
export function ruleLabel(ruleId: string, messageId: string): RuleLabel {
  const rule = ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
  return MESSAGES[`${rule}:${messageId}`] ?? high('SECRET', `${rule} secret`);
}

/** Every message the table knows, as `rule:messageId` (the recall test checks each is planted). */
export function knownMessages(): readonly string[] {
  return Object.keys(MESSAGES);
}

/** The label of Satchel's assignment rule, from the name the value is assigned to. */
export function assignmentLabel(name: string): RuleLabel {
  const lower = name.toLowerCase();
  if (lower.includes('client_secret') || lower.includes('clientsecret') || lower.includes('client-secret')) return high('CLIENT_SECRET', 'Client secret');
  if (/pass(word|wd)?|pwd/.test(lower)) return high('SECRET', 'Password');
  if (lower.includes('token')) return high('ACCESS_TOKEN', 'Token');
  if (/api_?-?key|apikey/.test(lower)) return high('API_KEY', 'API key');
  if (lower.includes('private')) return high('PRIVATE_KEY', 'Private key');
  if (lower.includes('access_key') || lower.includes('accesskey')) return high('ACCESS_KEY', 'Access key');
  return high('SECRET', 'Secret');
}
