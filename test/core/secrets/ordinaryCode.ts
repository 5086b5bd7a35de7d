/**
 * Ordinary code the detector must leave alone: identifiers, hashes and references that look random
 * or sit next to a secret-sounding name, but are no credential.
 */
export const ORDINARY: ReadonlyArray<readonly [what: string, code: string]> = [
  ['UUIDs', `const id = "550e8400-e29b-41d4-a716-446655440000";\nconst requestToken = '3f2b8c1e-9d4a-4e6b-8a2f-1c5d7e9b0a34';\nsessionId: 'c9a1f7e2-3b4d-4c8e-9f0a-7b6c5d4e3f21'`],
  ['lockfile hashes', `"node_modules/zod": {\n  "version": "4.1.5",\n  "resolved": "https://registry.npmjs.org/zod/-/zod-4.1.5.tgz",\n  "integrity": "sha512-rcUUZqlLJgBC33IT3PNMgsCq6TzLQEG/Ei/KTCU0PedSWRMAXoOUN+4t/0H+Q8bdnLPdqUYnvboJT0bn/229qg==",\n  "license": "MIT"\n}\nresolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#679591c564c3bffaae8454cf0b3df370c3d6911c"`],
  ['commit ids', `git checkout 918a826c4f0e2b1d7a3e5c6b8d9f0a1b2c3d4e5f\nexport const COMMIT = "27ca5de1b7c3f4a9e8d6c5b4a3f2e1d0c9b8a7f6";\nrev: 5bf5285a9c1d3e7f2b4a6c8e0d1f3a5b7c9e2d4f`],
  ['process.env references', `const apiKey = process.env.OPENAI_API_KEY;\nconst password = process.env.DB_PASSWORD ?? '';\nclient_secret = os.environ["CLIENT_SECRET"]\ntoken := os.Getenv("GITHUB_TOKEN")\nSECRET_KEY = env("DJANGO_SECRET_KEY")`],
  ['password prompts', `const password = await prompt('Enter your password: ');\npassword = getpass.getpass("Password: ")\nif (password.length < 12) throw new Error('password too short');\nread -s -p "Password: " PASSWORD`],
  ['typed config interfaces', `interface DatabaseConfig {\n  host: string;\n  password: string;\n  apiKey?: string;\n  clientSecret: SecretString;\n  token: Token | undefined;\n}\ntype Creds = { accessKey: string; secretKey: string };`],
  ['base64 helpers', `function basicAuth(user: string, password: string): string {\n  const token = Buffer.from(\`\${user}:\${password}\`).toString('base64');\n  return \`Basic \${token}\`;\n}\nconst encoded = btoa(unescape(encodeURIComponent(text)));\nconst TABLE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';`],
  ['placeholders and templates', `API_KEY=<your-api-key>\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\npassword: "\${DB_PASSWORD}"\ntoken = "{{ secrets.DEPLOY_TOKEN }}"\nclient_secret = "REPLACE_ME"`],
  ['names that only contain a secret word', `const secretName = "prod-db-credentials-v2-2024";\nconst tokenizer = new Tokenizer("bert-base-uncased-v2");\npassword_hash = bcrypt.hashpw(pw, bcrypt.gensalt(12))\nmax_tokens = 4096\nconst tokenType = "Bearer";`],
  ['hashes and digests', `const sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";\nETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"\nchecksum = md5("d41d8cd98f00b204e9800998ecf8427e")`],
  ['paths, constants and patterns found in real code', `export const SIGNIN_TOKEN = "/oauth2/v2.0/token";
const ids = {
  submitPassword: SIGN_IN_V2_SUBMIT_PASSWORD,
  submitNewPassword: RESET_PASSWORD_V2_SUBMIT,
};
const AuthTokenPattern = /_authToken=([^$].*)/g;
const callbackToken = "https://login.example.org/v2/callback123";`],
  ['expressions', `token = jwt.sign(payload, secret, { expiresIn: '1h' })\nconst apiKey = config.get('apiKey');\nsecret = self.settings.SECRET\npassword = hash(password + salt1234567890abcdef)`],
  ['shell assignments a command follows that hold no value', `PASSWORD_FILE=/run/secrets/db_password docker compose up
API_KEY=$API_KEY_FROM_VAULT ./deploy.sh --stage prod
SECRET_NAME=prod-db-credentials kubectl get secret "$SECRET_NAME"
GITHUB_TOKEN=\${{ secrets.GITHUB_TOKEN }} gh release create v1.2.3
token_count=12345678 tokens were used`],
];
