/** Three realistic developer conversations used by the title and summary tests. */
import type { TitleMessage } from '../../src/core/conversations/titles.ts';

export interface Fixture {
  readonly name: string;
  readonly messages: readonly TitleMessage[];
}

export const failingTest: Fixture = {
  name: 'debugging a failing test',
  messages: [
    {
      role: 'USER',
      text:
        'My Jest test for UserService.createUser started failing after I upgraded to Node 20. It throws ' +
        "TypeError: Cannot read properties of undefined (reading 'save') in the beforeEach hook. Any idea what changed?",
    },
    {
      role: 'ASSISTANT',
      text:
        'The error means the repository mock is undefined when beforeEach runs. In Jest 29 with ESM, jest.mock calls ' +
        'are no longer hoisted above imports, so your mock of UserRepository is registered after UserService is imported. ' +
        "Move the jest.mock('./userRepository') call into a setup file, or use jest.unstable_mockModule before a dynamic " +
        'import of UserService. Also check that resetMocks in jest.config.js is not wiping the mock implementation ' +
        'between tests. Does the test use ESM?\n\n```js\njest.unstable_mockModule("./userRepository.js", () => ({ save: jest.fn() }));\n```',
    },
    {
      role: 'USER',
      text: 'Yes, we switched to ESM. Using jest.unstable_mockModule with a dynamic import fixed it, the test passes now. Thanks!',
    },
  ],
};

export const schemaDesign: Fixture = {
  name: 'designing a database schema',
  messages: [
    {
      role: 'USER',
      text:
        "I'm designing a Postgres schema for a multi-tenant invoicing app. Each tenant has customers, invoices and " +
        'invoice line items. Should I put tenant_id on every table or use a separate schema per tenant?',
    },
    {
      role: 'ASSISTANT',
      text:
        'For a few hundred tenants, a shared schema with a tenant_id column on every table is simpler to migrate and query. ' +
        'Add tenant_id to customers, invoices and invoice_line_items, and make it part of every primary key and foreign key, ' +
        'for example PRIMARY KEY (tenant_id, id). Enable row level security with a policy that compares tenant_id to ' +
        "current_setting('app.tenant_id') so a missing WHERE clause cannot leak data. Create an index on invoices " +
        '(tenant_id, customer_id, issued_at) for the common listing query. A schema per tenant makes migrations slow ' +
        'once you have thousands of tenants.',
    },
    { role: 'USER', text: "Makes sense. We'll go with tenant_id on every table and row level security." },
  ],
};

export const deployment: Fixture = {
  name: 'a deployment question',
  messages: [
    {
      role: 'USER',
      text:
        'How do I deploy our Next.js app to AWS ECS with zero downtime? Right now every deploy drops requests for ' +
        'about 30 seconds.',
    },
    {
      role: 'ASSISTANT',
      text:
        'Dropped requests usually mean ECS stops old tasks before the new ones pass the load balancer health check. ' +
        "Set minimumHealthyPercent to 100 and maximumPercent to 200 in the service's deployment configuration so new " +
        'tasks start before old ones stop. Point the target group health check at a /api/health route that returns 200 ' +
        'only when the server is ready. Also raise the deregistration delay to 30 seconds and handle SIGTERM in the Node ' +
        'process so in-flight requests finish. What does your current health check path look like?',
    },
    {
      role: 'USER',
      text: 'I set minimumHealthyPercent to 100 and added the health route. The last deploy had no errors at all.',
    },
  ],
};

export const fixtures: readonly Fixture[] = [failingTest, schemaDesign, deployment];
