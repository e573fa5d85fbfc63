import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The deployer's IAM policy lives in the README (users copy it from the docs site). It cannot be
// tried against AWS from here, so this test holds it to what the deploy declares: every kind of
// resource sst.config.ts and infra/lambda/render-functions.ts create needs its actions allowed,
// and a new kind of resource fails here until the policy (and the table below) name it.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What creating, updating and deleting each kind of resource asks of AWS. */
const ACTIONS_BY_KIND: Record<string, string[]> = {
  'sst.aws.Bucket': ['s3:CreateBucket', 's3:DeleteBucket', 's3:PutBucketPolicy', 's3:PutBucketPublicAccessBlock', 's3:GetBucketPolicy'],
  'aws.s3.BucketLifecycleConfigurationV2': ['s3:PutLifecycleConfiguration', 's3:GetLifecycleConfiguration'],
  'sst.Secret': ['ssm:GetParameter', 's3:GetObject', 's3:PutObject'],
  'sst.aws.StepFunctions': [
    'states:CreateStateMachine',
    'states:UpdateStateMachine',
    'states:DeleteStateMachine',
    'iam:CreateRole',
    'iam:PassRole',
  ],
  'sst.aws.Function': [
    'lambda:CreateFunction',
    'lambda:UpdateFunctionCode',
    'lambda:UpdateFunctionConfiguration',
    'lambda:DeleteFunction',
    'lambda:CreateFunctionUrlConfig',
    'lambda:AddPermission',
    'iam:CreateRole',
    'iam:PutRolePolicy',
    'iam:PassRole',
    'logs:CreateLogGroup',
    'logs:PutRetentionPolicy',
    's3:PutObject',
  ],
  'aws.ecr.Repository': ['ecr:CreateRepository', 'ecr:DeleteRepository', 'ecr:DescribeRepositories'],
  'aws.ecr.getAuthorizationTokenOutput': ['ecr:GetAuthorizationToken'],
  'dockerbuild.Image': [
    'ecr:BatchCheckLayerAvailability',
    'ecr:InitiateLayerUpload',
    'ecr:UploadLayerPart',
    'ecr:CompleteLayerUpload',
    'ecr:PutImage',
  ],
  'aws.iam.Role': ['iam:CreateRole', 'iam:DeleteRole', 'iam:GetRole'],
  'aws.iam.RolePolicyAttachment': ['iam:AttachRolePolicy', 'iam:DetachRolePolicy'],
  'aws.iam.RolePolicy': ['iam:PutRolePolicy', 'iam:DeleteRolePolicy', 'iam:GetRolePolicy'],
  // Built locally into JSON: no call to AWS.
  'aws.iam.getPolicyDocumentOutput': [],
  'aws.lambda.Function': ['lambda:CreateFunction', 'lambda:DeleteFunction', 'lambda:UpdateFunctionCode', 'iam:PassRole'],
};

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
  Condition?: unknown;
}

async function readmePolicy(): Promise<{ Version: string; Statement: Statement[] }> {
  const readme = await readFile(path.join(REPO, 'adapters/aws-lambda/README.md'), 'utf8');
  const section = readme.split('## Deployer permissions (IAM)')[1]?.split('\n## ')[0];
  const block = section && /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error('adapters/aws-lambda/README.md has no ```json block under "## Deployer permissions (IAM)"');
  return JSON.parse(block) as { Version: string; Statement: Statement[] };
}

/** `s3:PutBucket*` allows `s3:PutBucketPolicy`; IAM matches actions case-insensitively. */
function allows(pattern: string, action: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return regex.test(action);
}

/** `new sst.aws.Bucket(`, `new aws.iam.Role(`, `aws.ecr.getAuthorizationTokenOutput(`, `new dockerbuild.Image(`. */
async function declaredKinds(): Promise<string[]> {
  const files = ['sst.config.ts', 'infra/lambda/render-functions.ts'];
  const kinds = new Set<string>();
  for (const file of files) {
    const text = await readFile(path.join(REPO, file), 'utf8');
    for (const match of text.matchAll(/\bnew\s+((?:sst|aws|dockerbuild)(?:\.\w+)+)\s*\(/g)) kinds.add(match[1]!);
    for (const match of text.matchAll(/\b(aws\.\w+\.get\w+)\s*\(/g)) kinds.add(match[1]!);
  }
  return [...kinds].sort();
}

describe('the deployer IAM policy in the Lambda README', () => {
  it('is a well-formed policy whose statements all allow something', async () => {
    const policy = await readmePolicy();
    expect(policy.Version).toBe('2012-10-17');
    expect(policy.Statement.length).toBeGreaterThan(0);
    for (const statement of policy.Statement) {
      expect(statement.Effect).toBe('Allow');
      expect([statement.Action].flat().length).toBeGreaterThan(0);
      expect([statement.Resource].flat().length).toBeGreaterThan(0);
    }
  });

  it('allows the actions of every kind of resource the deploy declares', async () => {
    const kinds = await declaredKinds();
    // The scan finds the config's resources at all (a renamed import would make it find none).
    expect(kinds).toEqual(expect.arrayContaining(['sst.aws.Function', 'aws.lambda.Function', 'aws.iam.Role']));
    const unknown = kinds.filter((kind) => !(kind in ACTIONS_BY_KIND));
    expect(unknown, 'a new kind of resource: add the actions it needs to the README policy and to ACTIONS_BY_KIND').toEqual([]);
    const policy = await readmePolicy();
    const allowed = policy.Statement.flatMap((statement) => [statement.Action].flat());
    const missing = kinds.flatMap((kind) =>
      ACTIONS_BY_KIND[kind]!.filter((action) => !allowed.some((pattern) => allows(pattern, action))).map((action) => `${kind}: ${action}`),
    );
    expect(missing).toEqual([]);
  });

  it('hands roles only to the render functions and the state machine', async () => {
    const policy = await readmePolicy();
    const passRole = policy.Statement.filter((statement) => [statement.Action].flat().some((action) => allows(action, 'iam:PassRole')));
    expect(passRole).toHaveLength(1);
    expect(passRole[0]!.Condition).toEqual({
      StringEquals: { 'iam:PassedToService': ['lambda.amazonaws.com', 'states.amazonaws.com'] },
    });
  });
});
