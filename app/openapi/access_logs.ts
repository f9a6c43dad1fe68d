import { listAccessLogsValidator } from '#validators/access_log'
import { queryParameters } from './from_validator.js'
import { list, nullable, operation, page, record, ref, type Section } from './helpers.js'

/** Who changed access and configuration, and when: the access log. */

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
          queryParameters(listAccessLogsValidator, {
            actor: 'Exact actor, e.g. `api_key:<id>`.',
            action: 'Exact action.',
            subject_type: 'Exact subject type.',
            subject_id: 'The subject.',
            publisher_id: 'Entries about this publisher.',
            from: 'At or after.',
            to: 'Before.',
          })
        )
      ),
    },
  },
}
