import { list, nullable, operation, page, record, ref, type Section } from './helpers.js'

/** Who changed access and configuration, and when: the access log. */
const query = (name: string, schema: Record<string, unknown>, description: string) => ({
  name,
  in: 'query',
  description,
  schema,
})

const schemas = {
  AccessLogEntry: record({
    id: {
      type: 'string',
      pattern: '^[1-9][0-9]*$',
      description: 'Increasing with time; a string, so no client rounds it.',
    },
    actor: {
      type: 'string',
      description:
        'Who: `operator:<user>`, `publisher:<user>`, `api_key:<id>`, `system:<component>`…',
    },
    action: {
      type: 'string',
      description:
        'What, e.g. `api_key.created`, `user.access_changed`, `quality_rules.confirmed`.',
      examples: ['publisher.updated'],
    },
    subject_type: {
      type: 'string',
      description: 'What it was done to: `publisher`, `user`, `api_key`, `label`, `buyer`…',
    },
    subject_id: ref('Id'),
    publisher_id: { ...nullable(ref('Id')), description: 'The publisher the entry concerns.' },
    buyer_id: {
      ...nullable(ref('Id')),
      description: 'The buyer the entry concerns; always null for publishers.',
    },
    details: {
      type: 'object',
      description: 'Ids, permissions, statuses and field names; never secrets or personal data.',
    },
    created_at: ref('Timestamp'),
  }),
  AccessLogEntryPage: page('AccessLogEntry'),
}

export const accessLogs: Section = {
  tags: [
    {
      name: 'Access log',
      description:
        'Every grant, revocation, role change and configuration change: who, what, when. The operator reads all of it; a publisher the entries about itself.',
    },
  ],
  schemas,
  paths: {
    '/v1/access-logs': {
      get: operation(
        '/v1/access-logs',
        list(
          'listAccessLogs',
          'Access log',
          'Read the access log',
          'AccessLogEntry',
          'Newest first. The operator and compliance read every entry; a publisher credential the entries about its own publisher; buyers are refused (403).',
          [
            query('actor', { type: 'string', maxLength: 100 }, 'Exact actor, e.g. `api_key:<id>`.'),
            query('action', { type: 'string', maxLength: 64 }, 'Exact action.'),
            query('subject_type', { type: 'string', maxLength: 32 }, 'Exact subject type.'),
            query('subject_id', ref('Id'), 'The subject.'),
            query('publisher_id', ref('Id'), 'Entries about this publisher.'),
            query('from', ref('Timestamp'), 'At or after.'),
            query('to', ref('Timestamp'), 'Before.'),
          ]
        )
      ),
    },
  },
}
