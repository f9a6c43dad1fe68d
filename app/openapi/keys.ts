import { createApiKeyValidator } from '#validators/api_key'
import { createOauthClientValidator } from '#validators/oauth_client'
import { pageValidator } from '#validators/pagination'
import { createUserValidator, updateUserValidator } from '#validators/user'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'
import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
  type Schema,
  type Section,
} from './helpers.js'

/** Credentials (API keys, OAuth clients and tokens) and portal users. */
const credentialDocs: Docs = {
  '': {
    description:
      'At most one of `publisher_id` and `buyer_id`; neither makes an operator credential.',
    checkedByService: { not: { required: ['publisher_id', 'buyer_id'] } },
  },
  'publisher_id':
    'Bind the credential to this publisher. A publisher may only name itself (or leave it out).',
  'buyer_id': 'Bind the credential to this buyer. Operator only.',
  'allowed_ips':
    'Only callers from these addresses may use the credential; any address when empty.',
}

const shapes: Record<string, Docs> = {
  ComplianceScopeInput: {
    '': 'What a compliance officer or key may audit: leads of these publishers or of these labels, that arrived in this period; their audit events in it. A key left out does not narrow.',
    'publishers': 'These publishers.',
    'labels': "These labels' publishers.",
    'from': 'Leads (and events) at or after.',
    'to': 'Leads (and events) before.',
  },
  UserRole: {
    '': '`label_manager`: a label’s own manager, reading the reports and leads of that label’s publishers only.',
  },
}

const withAll = (base: string, extra: Record<string, Schema>) => ({
  allOf: [ref(base), record(extra)],
})

const schemas = {
  ComplianceScope: record(
    {
      publishers: arrayOf(ref('Slug')),
      labels: arrayOf(ref('Slug')),
      from: ref('Timestamp'),
      to: ref('Timestamp'),
    },
    {
      required: [],
      description: 'As set, with bounds as UTC moments; only the keys that narrow are present.',
    }
  ),
  CredentialScope: record({
    id: ref('Id'),
    name: ref('Name'),
    owner: {
      type: 'string',
      enum: ['operator', 'publisher', 'buyer', 'compliance'],
      description: '`compliance`: an API key for an auditor (read only).',
    },
    publisher_id: nullable(ref('Id')),
    buyer_id: nullable(ref('Id')),
    permissions: ref('Permissions'),
    environment: ref('Environment'),
    allowed_ips: arrayOf(ref('Cidr')),
    created_by: {
      type: 'string',
      description: 'The actor that created it, e.g. `operator:<user>` or `api_key:<id>`.',
    },
    created_at: ref('Timestamp'),
    last_used_at: nullable(ref('Timestamp')),
    revoked_at: nullable(ref('Timestamp')),
  }),
  ApiKey: withAll('CredentialScope', {
    hint: {
      type: 'string',
      description: 'The first characters of the key, to recognise it.',
      examples: ['lg_live_Ab3d…'],
    },
    scope: {
      ...nullable(ref('ComplianceScope')),
      description: "A compliance key's limits; null for every other key, and for no limits.",
    },
  }),
  ApiKeyCreated: withAll('ApiKey', {
    key: {
      type: 'string',
      pattern: '^lg_(live|test)_[A-Za-z0-9_-]{43}$',
      description: 'The secret. Shown only in this response; store it now.',
    },
  }),
  ApiKeyPage: page('ApiKey'),
  OauthClient: withAll('CredentialScope', { client_id: { type: 'string', maxLength: 64 } }),
  OauthClientCreated: withAll('OauthClient', {
    client_secret: { type: 'string', description: 'Shown only in this response; store it now.' },
  }),
  OauthClientPage: page('OauthClient'),
  OauthTokenRequest: {
    type: 'object',
    required: ['grant_type'],
    properties: {
      grant_type: { const: 'client_credentials' },
      client_id: { type: 'string', maxLength: 64, description: 'When not sent with HTTP Basic.' },
      client_secret: {
        type: 'string',
        maxLength: 256,
        description: 'When not sent with HTTP Basic.',
      },
      scope: {
        type: 'string',
        maxLength: 64,
        description:
          "Space-separated subset of the client's permissions; all of them when omitted.",
        examples: ['read submit'],
      },
    },
  },
  OauthToken: record({
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds.', examples: [3600] },
    scope: { type: 'string', examples: ['read submit'] },
  }),

  User: record({
    id: ref('Id'),
    email: ref('Email'),
    full_name: nullable({ type: 'string', maxLength: 200 }),
    role: ref('UserRole'),
    publisher_id: nullable(ref('Id')),
    buyer_id: nullable(ref('Id')),
    label_id: { ...nullable(ref('Id')), description: 'A label manager’s label.' },
    permissions: arrayOf(ref('Permission')),
    disabled: { type: 'boolean' },
    scope: {
      ...nullable(ref('ComplianceScope')),
      description: "A compliance officer's limits; null for no limits and for every other role.",
    },
    created_at: ref('Timestamp'),
  }),
  UserPage: page('User'),
  InvitationResent: record({
    id: { ...ref('Id'), description: 'The new invitation.' },
    expires_at: { ...ref('Timestamp'), description: 'When the new link stops working.' },
    email_sent: {
      type: 'boolean',
      description:
        'Whether the mail server took the e-mail. When false, the invitation stands and can be resent.',
    },
  }),
}

const credentialExample = {
  name: 'Acme production',
  publisher_id: '0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c',
  permissions: ['submit'],
  environment: 'live',
  allowed_ips: ['203.0.113.0/24'],
}

export const keys: Section = {
  tags: [
    {
      name: 'API keys',
      description:
        'Bearer keys scoped to permissions, an environment, one owner and optionally an IP allowlist. The operator manages all; a publisher its own.',
    },
    {
      name: 'OAuth',
      description:
        'OAuth 2.0 client credentials, the alternative to API keys: register a client, then exchange its id and secret for a short-lived bearer token.',
    },
    {
      name: 'Users',
      description:
        'Portal users and their roles. Every change is logged; disabling a user ends its access at once.',
    },
  ],
  schemas,
  shapes,
  paths: {
    '/v1/api-keys': {
      post: operation('/v1/api-keys', {
        id: 'createApiKey',
        tag: 'API keys',
        summary: 'Create an API key',
        description:
          'The response is the only place the key appears; Leadgate stores a hash. Sandbox credentials create sandbox keys only, and a key never gets more permissions than its creator.',
        scope: 'submit',
        body: fromValidator(createApiKeyValidator, {
          name: 'ApiKeyCreate',
          docs: {
            ...credentialDocs,
            compliance:
              'Operator only: a key for an auditor, owned by no publisher or buyer, with `["read"]` only. It exports, verifies and proves the audit trail (GET /v1/audit-logs…) within its `scope`.',
            scope: 'A compliance key only: what it may audit. Left out, everything.',
          },
          example: credentialExample,
        }),
        success: {
          status: 201,
          description: 'The key, with its secret.',
          schema: ref('ApiKeyCreated'),
        },
      }),
      get: operation(
        '/v1/api-keys',
        list(
          'listApiKeys',
          'API keys',
          'List API keys',
          'ApiKey',
          'Without secrets.',
          queryParameters(pageValidator)
        )
      ),
    },
    '/v1/api-keys/{id}': {
      parameters: [param('Id')],
      delete: operation('/v1/api-keys/{id}', {
        id: 'revokeApiKey',
        tag: 'API keys',
        summary: 'Revoke an API key',
        description: 'The key fails on its very next request.',
        scope: 'submit',
        success: { status: 204, description: 'Revoked.' },
      }),
    },
    '/v1/oauth/token': {
      post: operation('/v1/oauth/token', {
        id: 'issueOauthToken',
        tag: 'OAuth',
        summary: 'Get an access token',
        description:
          'Client credentials grant (RFC 6749 §4.4). Authenticate with HTTP Basic or `client_id`/`client_secret` in the form. Errors carry `error` and `error_description` as RFC 6749 §5.2 requires, inside problem details. Requests are counted per address, as a key’s are (429 past the budget).',
        scope: 'client',
        body: {
          schema: ref('OauthTokenRequest'),
          mediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
          example: { grant_type: 'client_credentials', scope: 'read submit' },
        },
        success: {
          status: 200,
          description: 'The token; never cached.',
          schema: ref('OauthToken'),
          headers: {
            'Cache-Control': { description: 'Always `no-store`.', schema: { type: 'string' } },
          },
        },
        errors: [401, 429],
      }),
    },
    '/v1/oauth-clients': {
      post: operation('/v1/oauth-clients', {
        id: 'createOauthClient',
        tag: 'OAuth',
        summary: 'Register an OAuth client',
        description: 'Same scoping as an API key. The secret appears only in this response.',
        scope: 'submit',
        body: fromValidator(createOauthClientValidator, {
          name: 'CredentialCreate',
          docs: credentialDocs,
          example: credentialExample,
        }),
        success: {
          status: 201,
          description: 'The client, with its secret.',
          schema: ref('OauthClientCreated'),
        },
      }),
      get: operation(
        '/v1/oauth-clients',
        list(
          'listOauthClients',
          'OAuth',
          'List OAuth clients',
          'OauthClient',
          'Without secrets.',
          queryParameters(pageValidator)
        )
      ),
    },
    '/v1/oauth-clients/{id}': {
      parameters: [param('Id')],
      delete: operation('/v1/oauth-clients/{id}', {
        id: 'revokeOauthClient',
        tag: 'OAuth',
        summary: 'Revoke an OAuth client',
        description: 'The client can get no new token, and its tokens fail on their next request.',
        scope: 'submit',
        success: { status: 204, description: 'Revoked.' },
      }),
    },
    '/v1/users': {
      post: operation('/v1/users', {
        id: 'createUser',
        tag: 'Users',
        summary: 'Create a portal user',
        description:
          'The operator creates any user; a publisher only `publisher_user`s of its own.',
        scope: 'submit',
        body: fromValidator(createUserValidator, {
          name: 'UserCreate',
          docs: {
            password: {
              writeOnly: true,
              description:
                "The user's first password; stored hashed. Leave it out to invite the user by e-mail instead: the link lets it choose its own within 14 days.",
            },
            publisher_id: 'Required for `publisher_user`. A publisher creates only its own users.',
            buyer_id: 'Required for `buyer_user`.',
            label: 'Required for `label_manager`: the label’s slug.',
            permissions:
              'A publisher user delivers (`submit`), reports (`read`) or both (the default).',
            scope:
              'A `compliance_officer` only, set by the operator: what it may audit. Left out, everything.',
          },
          example: {
            email: 'anna@acme.example',
            password: 'correct-horse-battery',
            full_name: 'Anna de Vries',
            role: 'publisher_user',
            publisher_id: '0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c',
            permissions: ['read'],
          },
        }),
        success: { status: 201, description: 'The user.', schema: ref('User') },
        errors: [409],
      }),
      get: operation(
        '/v1/users',
        list(
          'listUsers',
          'Users',
          'List portal users',
          'User',
          undefined,
          queryParameters(pageValidator)
        )
      ),
    },
    '/v1/users/{id}': {
      parameters: [param('Id')],
      patch: operation('/v1/users/{id}', {
        id: 'updateUser',
        tag: 'Users',
        summary: "Change a user's permissions or revoke its access",
        scope: 'submit',
        body: fromValidator(updateUserValidator, {
          name: 'UserUpdate',
          mergePatch: true,
          docs: {
            role: 'Operator only, and only between operator roles.',
            disabled: "`true` revokes the user's access at once; `false` restores it.",
            scope: 'Operator only, for a compliance officer: its new limits; null lifts them.',
          },
          example: { permissions: ['read', 'submit'] },
        }),
        success: { status: 200, description: 'The updated user.', schema: ref('User') },
      }),
    },
    '/v1/users/{id}/invitation': {
      parameters: [param('Id')],
      post: operation('/v1/users/{id}/invitation', {
        id: 'resendUserInvitation',
        tag: 'Users',
        summary: 'Resend a user its invitation',
        description:
          'For a user created without a password that has not chosen one yet: a new link, valid for 14 days, is e-mailed and the earlier one stops working. The operator resends for anyone, a publisher for its own users. 409 `invitation_accepted` once the user has chosen its password.',
        scope: 'submit',
        success: {
          status: 200,
          description: 'The new invitation.',
          schema: ref('InvitationResent'),
        },
        errors: [409],
      }),
    },
  },
}
